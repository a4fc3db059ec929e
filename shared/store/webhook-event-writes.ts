import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mainTableName, writeIfConditionHolds } from './client.ts';
import { type FlowChange, tableFlowStore } from './flow-items.ts';
import { type DeliveryStatus, type WebhookEvent, type WebhookEventRef, webhookEventKey } from './webhook-events.ts';

/**
 * Storing webhook events and their delivery state (webhook-events.ts has the layout and the reads).
 * An event is an item of the `webhooks` event flow: `due` (its delivery state, shared/flows/) comes from
 * the flow, and the event leaves the due index once it is delivered, failed or erased.
 */

/** The event as a write, for a transaction that stores it with what it announces (a lead, a proposal). */
export function webhookEventPut(event: WebhookEvent): PutCommand {
  const { tenantId, sk, due, ...rest } = event;
  return new PutCommand({
    TableName: mainTableName(),
    Item: { ...rest, tenantId, ...due, ...webhookEventKey({ tenantId, sk }) },
    ConditionExpression: 'attribute_not_exists(sk)',
  });
}

/**
 * Records one attempt's outcome, only if no other run recorded one since `previousAttempts` (a
 * duplicate message then changes nothing): a pending event stays due at `retryAt`, any other leaves
 * the due index. Returns whether it was recorded.
 */
export function recordAttempt(
  ref: WebhookEventRef,
  previousAttempts: number,
  outcome: { status: DeliveryStatus; lastStatus: number | null; lastAttemptAt: string; retryAt?: number },
): Promise<boolean> {
  const { retryAt, ...recorded } = outcome;
  const change: FlowChange = {
    set: { ...recorded, attempts: previousAttempts + 1 },
    due: recorded.status === 'pending' && retryAt !== undefined ? retryAt : 'settled',
    expect: { status: 'pending', attempts: previousAttempts },
  };
  return tableFlowStore.change(webhookEventKey(ref), change);
}

/** Ends a pending event without another attempt (its tenant's webhook was removed or disabled). */
export const abandonWebhookEvent = (ref: WebhookEventRef): Promise<boolean> =>
  tableFlowStore.change(webhookEventKey(ref), { set: { status: 'failed' }, due: 'settled', expect: { status: 'pending' } });

/** An event whose item is gone, or done, leaves the due index whatever it holds (a duplicate message, a crash before its write). */
export const settleWebhookEvent = (ref: WebhookEventRef): Promise<boolean> => tableFlowStore.change(webhookEventKey(ref), { due: 'settled' });

/**
 * The personal data an event carried, gone for good (its lead was erased): the sealed data goes from
 * the event whatever its status, and an event not yet delivered ends `erased` and leaves the due
 * index, so that no later attempt, retry or sweep sends it.
 */
export async function eraseWebhookEventData(ref: WebhookEventRef): Promise<void> {
  const key = webhookEventKey(ref);
  const ended = await writeIfConditionHolds(
    new UpdateCommand({
      TableName: mainTableName(),
      Key: key,
      UpdateExpression: 'SET #status = :erased, #data = :none REMOVE sealedData, dueShard, dueAt, relay',
      ConditionExpression: '#status IN (:pending, :failed)',
      ExpressionAttributeNames: { '#status': 'status', '#data': 'data' },
      ExpressionAttributeValues: { ':erased': 'erased', ':none': {}, ':pending': 'pending', ':failed': 'failed' },
    }),
  );
  if (!ended)
    await writeIfConditionHolds(
      new UpdateCommand({
        TableName: mainTableName(),
        Key: key,
        UpdateExpression: 'SET #data = :none REMOVE sealedData',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#data': 'data' },
        ExpressionAttributeValues: { ':none': {} },
      }),
    );
}
