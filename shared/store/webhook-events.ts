import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { WebhookEventType, WebhookEventView } from '../schemas/tenant.ts';
import { documentStore, mainTableName, queryItems } from './client.ts';
import { decodeCursor, encodeCursor } from './cursor.ts';
import { keys } from './keys.ts';

/**
 * Webhook events, written before they are queued so that none is lost:
 *   TENANT#<tenantId>#WEBHOOKS / EVENT#<created ms, 13 digits>#<id>  the event and its delivery state
 *   WEBHOOKS#PENDING / <tenantId>#<event sk>                        while it is pending: when it is due,
 *                                                                    so a sweep can queue it again, and
 *                                                                    `relay` when the relay should queue it
 */
/** `erased`: the lead the event carried was erased before it was delivered (its data is gone, no attempt follows) */
export type DeliveryStatus = 'pending' | 'delivered' | 'failed' | 'erased';

export interface WebhookEvent {
  tenantId: string;
  sk: string;
  id: string;
  type: WebhookEventType;
  data: Record<string, unknown>;
  /** the data sealed instead (a lead's personal data): `data` is then empty at rest, and the delivery opens it */
  sealedData?: string;
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

/** On a pending marker: its writer did not queue the event; the outbox relay (the table's stream) does. */
export const RELAY_FLAG = 'relay';
const PAGE_SIZE = 50;

/** When an event was created, as its key says (`EVENT#<ms>#<id>`). */
export const createdAtOf = (ref: WebhookEventRef): number => keys.webhookEventCreatedAt(ref.sk);

/** The event a pending marker names, from the marker's image as the table's stream gives it. */
export function pendingMarkerRef(image: Record<string, unknown>): WebhookEventRef | undefined {
  const marker = unmarshall(image as Record<string, AttributeValue>) as { tenantId?: unknown; eventSk?: unknown };
  return typeof marker.tenantId === 'string' && typeof marker.eventSk === 'string' ? { tenantId: marker.tenantId, sk: marker.eventSk } : undefined;
}

export async function loadWebhookEvent(ref: WebhookEventRef): Promise<WebhookEvent | undefined> {
  const { Item } = await documentStore().send(
    new GetCommand({ TableName: mainTableName(), Key: { pk: keys.webhookEventsPk(ref.tenantId), sk: ref.sk }, ConsistentRead: true }),
  );
  return Item ? ({ ...Item, tenantId: ref.tenantId } as WebhookEvent) : undefined;
}

/** Pending events due before `before` (epoch ms): their message was lost or never sent. */
export async function overdueWebhookEvents(before: number, limit = 100): Promise<WebhookEventRef[]> {
  const found: WebhookEventRef[] = [];
  const pending = queryItems({
    KeyConditionExpression: 'pk = :pk',
    FilterExpression: 'dueAt < :before',
    ExpressionAttributeValues: { ':pk': keys.pendingWebhooksPk, ':before': before },
  });
  for await (const item of pending) {
    found.push({ tenantId: item.tenantId as string, sk: item.eventSk as string });
    if (found.length >= limit) break;
  }
  return found;
}

/** A tenant's events, newest first, a page at a time. */
export async function listWebhookEvents(tenantId: string, pagination: string): Promise<{ events: WebhookEventView[]; paging: { next?: string } }> {
  const page = await documentStore().send(
    new QueryCommand({
      TableName: mainTableName(),
      KeyConditionExpression: pagination ? 'pk = :pk AND sk < :before' : 'pk = :pk AND begins_with(sk, :event)',
      ExpressionAttributeValues: pagination
        ? { ':pk': keys.webhookEventsPk(tenantId), ':before': decodeCursor(pagination, /^EVENT#\d{13}#msg_[A-Za-z0-9]+$/) }
        : { ':pk': keys.webhookEventsPk(tenantId), ':event': keys.webhookEventPrefix },
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

/** Whose a sealed event's data is: it opens for this event only. */
export const webhookDataOwner = (event: Pick<WebhookEvent, 'tenantId' | 'id'>) => `webhook-event:${event.tenantId}:${event.id}`;
