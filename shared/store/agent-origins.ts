import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { AuditOrigin } from '../core/audit.ts';
import { documentStore, mainTableName } from './client.ts';
import { keys } from './keys.ts';

/**
 * The agent a route's write came from (docs/agents.md): the client of the agent action /mcp wrote for
 * it (agent-actions.ts), when the id names an action of this tenant for this operation, already sent.
 * A read only, kept apart so that the bundle of every operation holds no write of agent actions.
 */
export async function agentOriginOf(tenantId: string, actionId: string, operation: string): Promise<AuditOrigin | undefined> {
  if (!/^[\w-]{16,64}$/.test(actionId)) return undefined;
  const { Item } = await documentStore().send(
    new GetCommand({
      TableName: mainTableName(),
      Key: keys.agentAction(tenantId, actionId),
      ProjectionExpression: 'tool, client, #state',
      ExpressionAttributeNames: { '#state': 'state' },
    }),
  );
  if (!Item || Item.tool !== operation || Item.state === 'pending') return undefined;
  return { type: 'mcp', client: Item.client as AuditOrigin['client'] };
}
