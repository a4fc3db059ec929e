import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { AuditOrigin } from '../core/audit.ts';
import { documentStore, mainTableName, writeIfConditionHolds } from './client.ts';
import { keys } from './keys.ts';
import { open, seal } from './sealing.ts';

/**
 * A write an AI agent asked for over MCP (docs/agents.md), one item:
 *   TENANT#<t>#AGENT_ACTION#<id> / ACTION
 * Under `confirm` it holds the tool and its arguments (sealed: they may carry personal data) until
 * `confirm_action` claims it, once (pending → applying), then the answer (sealed too), so that a repeat
 * answers it again. Under `apply` it is written as it is sent. Either way the route the write goes
 * through reads it by the id the MCP function hands over (agent-origins.ts), to record the agent as the
 * write's origin.
 */
export type AgentActionState = 'pending' | 'applying' | 'done';

export interface AgentAction {
  actionId: string;
  tenantId: string;
  tool: string;
  client: AuditOrigin['client'];
  state: AgentActionState;
  /** until when a pending action may be confirmed (ISO 8601) */
  validUntil: string;
  /** the arguments, sealed; absent for a write applied at once */
  sealedArguments?: string;
  /** the tool's answer, sealed, once applied */
  sealedAnswer?: string;
}

/** How long the item outlives its confirmation window: a repeated confirmation still answers the first result. */
const KEEP_AFTER_VALID_SECONDS = 24 * 60 * 60;

const ownerOf = (tenantId: string, actionId: string) => `${tenantId}/agent-action/${actionId}`;
export const sealActionValue = (tenantId: string, actionId: string, value: unknown) => seal(JSON.stringify(value), ownerOf(tenantId, actionId));
export const openActionValue = <T>(tenantId: string, actionId: string, sealed: string) => JSON.parse(open(sealed, ownerOf(tenantId, actionId))) as T;

export async function createAgentAction(action: AgentAction): Promise<void> {
  await documentStore().send(
    new PutCommand({
      TableName: mainTableName(),
      Item: {
        ...keys.agentAction(action.tenantId, action.actionId),
        ...action,
        expiresAt: Math.floor(Date.parse(action.validUntil) / 1000) + KEEP_AFTER_VALID_SECONDS,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
}

export async function findAgentAction(tenantId: string, actionId: string): Promise<AgentAction | undefined> {
  const { Item } = await documentStore().send(new GetCommand({ TableName: mainTableName(), Key: keys.agentAction(tenantId, actionId), ConsistentRead: true }));
  if (!Item) return undefined;
  const { pk: _pk, sk: _sk, expiresAt: _ttl, ...action } = Item;
  return action as AgentAction;
}

/** pending → applying, while still valid: true for the one caller that may send the write. */
export function claimAgentAction(tenantId: string, actionId: string, now: string): Promise<boolean> {
  return writeIfConditionHolds(
    new UpdateCommand({
      TableName: mainTableName(),
      Key: keys.agentAction(tenantId, actionId),
      UpdateExpression: 'SET #state = :applying',
      ConditionExpression: '#state = :pending AND validUntil > :now',
      ExpressionAttributeNames: { '#state': 'state' },
      ExpressionAttributeValues: { ':applying': 'applying', ':pending': 'pending', ':now': now },
    }),
  );
}

/** The answer of the applied write, kept for a repeat. */
export async function finishAgentAction(tenantId: string, actionId: string, sealedAnswer: string): Promise<void> {
  await documentStore().send(
    new UpdateCommand({
      TableName: mainTableName(),
      Key: keys.agentAction(tenantId, actionId),
      UpdateExpression: 'SET #state = :done, sealedAnswer = :answer',
      ExpressionAttributeNames: { '#state': 'state' },
      ExpressionAttributeValues: { ':done': 'done', ':answer': sealedAnswer },
    }),
  );
}
