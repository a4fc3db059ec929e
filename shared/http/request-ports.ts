import type { AuditOrigin } from '../core/audit.ts';
import { agentOriginOf } from '../store/agent-origins.ts';
import { type ApiKeyOwner, findApiKey } from '../store/api-key-lookup.ts';
import { findUser, type User } from '../store/users.ts';

/**
 * What the request middleware needs from the outside world, as a small interface: the store in
 * production, in-memory fakes in the unit tests (test/unit/middleware.test.ts), so the whole chain
 * runs without a stack.
 */
export interface RequestPorts {
  /** the owner of an API key, by the key's SHA-256 hash */
  findApiKey(keyHash: string): Promise<ApiKeyOwner | undefined>;
  findUser(tenantId: string, userId: string): Promise<User | undefined>;
  /** the AI agent a write came from, by the action id /mcp sent it with (docs/agents.md) */
  agentOrigin(tenantId: string, actionId: string, operation: string): Promise<AuditOrigin | undefined>;
}

export const storePorts: RequestPorts = { findApiKey, findUser, agentOrigin: agentOriginOf };
