import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentStore, mainTableName } from './client.ts';
import { eventsPk, PENDING_PK, type DeliveryStatus, type WebhookEvent, type WebhookEventRef } from './webhook-events.ts';

/** Storing webhook events and their delivery state (webhook-events.ts has the layout and the reads). */
export async function storeWebhookEvent(event: WebhookEvent, dueAt: number): Promise<void> {
  const { tenantId, sk, ...rest } = event;
  // the pending marker first: an event without one could never be swept
  await markPending({ tenantId, sk }, dueAt);
  await documentStore().send(
    new PutCommand({ TableName: mainTableName(), Item: { pk: eventsPk(tenantId), sk, tenantId, ...rest }, ConditionExpression: 'attribute_not_exists(sk)' }),
  );
}

export async function markPending(ref: WebhookEventRef, dueAt: number): Promise<void> {
  await documentStore().send(new PutCommand({ TableName: mainTableName(), Item: { pk: PENDING_PK, sk: `${ref.tenantId}#${ref.sk}`, tenantId: ref.tenantId, eventSk: ref.sk, dueAt } }));
}

/**
 * Records one attempt's outcome, only if no other run recorded one since `previousAttempts` (a
 * duplicate message then changes nothing). Returns whether it was recorded.
 */
export async function recordAttempt(
  ref: WebhookEventRef,
  previousAttempts: number,
  outcome: { status: DeliveryStatus; lastStatus: number | null; lastAttemptAt: string },
): Promise<boolean> {
  try {
    await documentStore().send(
      new UpdateCommand({
        TableName: mainTableName(),
        Key: { pk: eventsPk(ref.tenantId), sk: ref.sk },
        UpdateExpression: 'SET #status = :status, attempts = :attempts, lastStatus = :lastStatus, lastAttemptAt = :at',
        ConditionExpression: 'attempts = :previous AND #status = :pending',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':status': outcome.status,
          ':attempts': previousAttempts + 1,
          ':lastStatus': outcome.lastStatus,
          ':at': outcome.lastAttemptAt,
          ':previous': previousAttempts,
          ':pending': 'pending',
        },
      }),
    );
  } catch (error) {
    if ((error as Error).name === 'ConditionalCheckFailedException') return false;
    throw error;
  }
  if (outcome.status !== 'pending') await documentStore().send(new DeleteCommand({ TableName: mainTableName(), Key: { pk: PENDING_PK, sk: `${ref.tenantId}#${ref.sk}` } }));
  return true;
}

/** Ends a pending event without another attempt (its tenant's webhook was removed or disabled). */
export async function abandonWebhookEvent(ref: WebhookEventRef): Promise<void> {
  await documentStore()
    .send(
      new UpdateCommand({
        TableName: mainTableName(),
        Key: { pk: eventsPk(ref.tenantId), sk: ref.sk },
        UpdateExpression: 'SET #status = :failed',
        ConditionExpression: '#status = :pending',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':failed': 'failed', ':pending': 'pending' },
      }),
    )
    .catch((error: Error) => {
      if (error.name !== 'ConditionalCheckFailedException') throw error;
    });
  await documentStore().send(new DeleteCommand({ TableName: mainTableName(), Key: { pk: PENDING_PK, sk: `${ref.tenantId}#${ref.sk}` } }));
}

