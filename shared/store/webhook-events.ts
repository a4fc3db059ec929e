import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { InvalidRequest } from '../errors.ts';
import type { WebhookEventType, WebhookEventView } from '../schemas/tenant.ts';
import { documentStore, mainTableName } from './client.ts';

/**
 * Webhook events, written before they are queued so that none is lost:
 *   TENANT#<tenantId>#WEBHOOKS / EVENT#<created ms, 13 digits>#<id>  the event and its delivery state
 *   WEBHOOKS#PENDING / <tenantId>#<event sk>                        while it is pending: when it is due,
 *                                                                    so a sweep can queue it again
 */
export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface WebhookEvent {
  tenantId: string;
  sk: string;
  id: string;
  type: WebhookEventType;
  data: Record<string, unknown>;
  createdAt: string;
  status: DeliveryStatus;
  attempts: number;
  lastStatus: number | null;
  lastAttemptAt: string | null;
}

/** What a queue message carries: where the event is, never its data. */
export interface WebhookEventRef {
  tenantId: string;
  sk: string;
}

const eventsPk = (tenantId: string) => `TENANT#${tenantId}#WEBHOOKS`;
const PENDING_PK = 'WEBHOOKS#PENDING';
const PAGE_SIZE = 50;

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

export async function loadWebhookEvent(ref: WebhookEventRef): Promise<WebhookEvent | undefined> {
  const { Item } = await documentStore().send(new GetCommand({ TableName: mainTableName(), Key: { pk: eventsPk(ref.tenantId), sk: ref.sk }, ConsistentRead: true }));
  return Item ? ({ ...Item, tenantId: ref.tenantId } as WebhookEvent) : undefined;
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

/** Pending events due before `before` (epoch ms): their message was lost or never sent. */
export async function overdueWebhookEvents(before: number, limit = 100): Promise<WebhookEventRef[]> {
  const found: WebhookEventRef[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await documentStore().send(
      new QueryCommand({
        TableName: mainTableName(),
        KeyConditionExpression: 'pk = :pk',
        FilterExpression: 'dueAt < :before',
        ExpressionAttributeValues: { ':pk': PENDING_PK, ':before': before },
        ExclusiveStartKey,
      }),
    );
    for (const item of page.Items ?? []) found.push({ tenantId: item.tenantId as string, sk: item.eventSk as string });
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey && found.length < limit);
  return found.slice(0, limit);
}

const encodeCursor = (sk: string) => Buffer.from(JSON.stringify({ before: sk })).toString('base64url');
function decodeCursor(cursor: string): string {
  try {
    const { before } = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { before?: unknown };
    if (typeof before === 'string' && /^EVENT#\d{13}#msg_[A-Za-z0-9]+$/.test(before)) return before;
  } catch {
    // fall through
  }
  throw new InvalidRequest('The pagination value was not issued by this API; send back results.paging.next as it was.', [
    { path: 'pagination', message: 'unknown cursor' },
  ]);
}

/** A tenant's events, newest first, a page at a time. */
export async function listWebhookEvents(tenantId: string, pagination: string): Promise<{ events: WebhookEventView[]; paging: { next?: string } }> {
  const page = await documentStore().send(
    new QueryCommand({
      TableName: mainTableName(),
      KeyConditionExpression: pagination ? 'pk = :pk AND sk < :before' : 'pk = :pk AND begins_with(sk, :event)',
      ExpressionAttributeValues: pagination ? { ':pk': eventsPk(tenantId), ':before': decodeCursor(pagination) } : { ':pk': eventsPk(tenantId), ':event': 'EVENT#' },
      ScanIndexForward: false,
      Limit: PAGE_SIZE,
    }),
  );
  const items = page.Items ?? [];
  const events = items.map((item) => ({
    id: item.id as string,
    type: item.type as string,
    createdAt: item.createdAt as string,
    status: item.status as DeliveryStatus,
    attempts: item.attempts as number,
    lastStatus: (item.lastStatus as number | null) ?? null,
    lastAttemptAt: (item.lastAttemptAt as string | null) ?? null,
  }));
  const last = items.at(-1);
  return { events, paging: page.LastEvaluatedKey && last ? { next: encodeCursor(last.sk as string) } : {} };
}
