import { createHash, randomBytes } from 'node:crypto';
import type { OperationTool } from '../../../shared/agents/tool-catalog.ts';
import type { AuditOrigin } from '../../../shared/core/audit.ts';
import type { AgentWriteMode } from '../../../shared/schemas/tenant-values.ts';

/** Who calls a tool over /mcp, and under which of the tenant's settings (docs/agents.md). */
export interface AgentCall {
  tenantId: string;
  apiKey: string;
  mode: AgentWriteMode;
  client: AuditOrigin['client'];
  /** the tools, read from the OpenAPI document when a request first needs them */
  catalog: () => readonly OperationTool[];
}

export const CONFIRMATION_TOKEN_PREFIX = 'mcpc_';
export const newActionId = () => randomBytes(18).toString('base64url');
/**
 * An Idempotency-Key per action: a resend of the same action is a replay at the route, never a second
 * write. A digest of the id, not the id: the key shows in the audit log, the id is the confirmation token.
 */
export const actionIdempotencyKey = (actionId: string) => `agent-${createHash('sha256').update(actionId).digest('hex').slice(0, 32)}`;
