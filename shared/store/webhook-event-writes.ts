import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentStore, mainTableName, writeIfConditionHolds } from './client.ts';
import { RELAY_FLAG, type DeliveryStatus, type WebhookEvent, type WebhookEventRef } from './webhook-events.ts';
import { keys } from './keys.ts';

/**
 * Storing webhook events and their delivery state (webhook-events.ts has the layout and the reads).
 * `relay`: the writer will not queue the event itself; the outbox relay does, from the table's stream.
 */
export async function storeWebhookEvent(event: WebhookEvent, dueAt: number, relay = false): Promise<void> {
  const [marker, stored] = webhookEventPuts(event, dueAt, relay);
  // the pending marker first: an event without one could never be swept
  await documentStore().send(marker);
  await documentStore().send(stored);
}

/** The event and its pending marker as writes, for a transaction that stores them with what they announce (a lead). */
export function webhookEventPuts(event: WebhookEvent, dueAt: number, relay = false): [PutCommand, PutCommand] {
  const { tenantId, sk, ...rest } = event;
  return [
    pendingPut({ tenantId, sk }, dueAt, relay),
    new PutCommand({
      TableName: mainTableName(),
      Item: { pk: keys.webhookEventsPk(tenantId), sk, tenantId, ...rest },
      ConditionExpression: 'attribute_not_exists(sk)',
    }),
  ];
}

export async function markPending(ref: WebhookEventRef, dueAt: number, relay = false): Promise<void> {
  await documentStore().send(pendingPut(ref, dueAt, relay));
}

function pendingPut(ref: WebhookEventRef, dueAt: number, relay: boolean): PutCommand {
  return new PutCommand({
    TableName: mainTableName(),
    Item: {
      pk: keys.pendingWebhooksPk,
      sk: `${ref.tenantId}#${ref.sk}`,
      tenantId: ref.tenantId,
      eventSk: ref.sk,
      dueAt,
      ...(relay ? { [RELAY_FLAG]: true } : {}),
    },
  });
}

/** Applies `update` to the event only while it is pending (and `condition` holds); whether it did. */
function updateWhilePending(ref: WebhookEventRef, update: string, values: Record<string, unknown>, condition = ''): Promise<boolean> {
  return writeIfConditionHolds(
    new UpdateCommand({
      TableName: mainTableName(),
      Key: { pk: keys.webhookEventsPk(ref.tenantId), sk: ref.sk },
      UpdateExpression: update,
      ConditionExpression: `#status = :pending${condition ? ` AND ${condition}` : ''}`,
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ...values, ':pending': 'pending' },
    }),
  );
}

/** Removes the event's pending marker (the sweep then never queues it again). */
export const clearPending = (ref: WebhookEventRef) =>
  documentStore().send(new DeleteCommand({ TableName: mainTableName(), Key: { pk: keys.pendingWebhooksPk, sk: `${ref.tenantId}#${ref.sk}` } }));

/**
 * Records one attempt's outcome, only if no other run recorded one since `previousAttempts` (a
 * duplicate message then changes nothing). Returns whether it was recorded.
 */
export async function recordAttempt(
  ref: WebhookEventRef,
  previousAttempts: number,
  outcome: { status: DeliveryStatus; lastStatus: number | null; lastAttemptAt: string },
): Promise<boolean> {
  const recorded = await updateWhilePending(
    ref,
    'SET #status = :status, attempts = :attempts, lastStatus = :lastStatus, lastAttemptAt = :at',
    {
      ':status': outcome.status,
      ':attempts': previousAttempts + 1,
      ':lastStatus': outcome.lastStatus,
      ':at': outcome.lastAttemptAt,
      ':previous': previousAttempts,
    },
    'attempts = :previous',
  );
  if (recorded && outcome.status !== 'pending') await clearPending(ref);
  return recorded;
}

/** Ends a pending event without another attempt (its tenant's webhook was removed or disabled). */
export async function abandonWebhookEvent(ref: WebhookEventRef): Promise<void> {
  await updateWhilePending(ref, 'SET #status = :failed', { ':failed': 'failed' });
  await clearPending(ref);
}

/**
 * The personal data an event carried, gone for good (its lead was erased): the sealed data goes from
 * the event whatever its status, and an event not yet delivered ends `erased`, its pending marker
 * removed, so that no later attempt, retry or sweep sends it.
 */
export async function eraseWebhookEventData(ref: WebhookEventRef): Promise<void> {
  const key = { pk: keys.webhookEventsPk(ref.tenantId), sk: ref.sk };
  const ended = await writeIfConditionHolds(
    new UpdateCommand({
      TableName: mainTableName(),
      Key: key,
      UpdateExpression: 'SET #status = :erased, #data = :none REMOVE sealedData',
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
  await clearPending(ref);
}
