import { BatchGetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { WebhookEventView } from '../schemas/tenant.ts';
import type { WebhookEventType } from '../schemas/tenant-values.ts';
import { documentStore, mainTableName } from './client.ts';
import { settingsOfItem, type VersionedSettings } from './tenant-settings.ts';
import { decodeCursor, encodeCursor } from './cursor.ts';
import { keys } from './keys.ts';

/**
 * Webhook events, written before they are queued so that none is lost: each an item of the `webhooks`
 * event flow (shared/flows/), in the due index while it is pending, so a sweep can queue it again.
 *   TENANT#<tenantId>#WEBHOOKS / EVENT#<created ms, 13 digits>#<id>  the event and its delivery state
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
  /** the delivery state of a new event, from the `webhooks` flow (shared/flows/): written with it */
  due?: Record<string, unknown>;
}

/** What a queue message carries: where the event is, never its data. */
export interface WebhookEventRef {
  tenantId: string;
  sk: string;
}

const PAGE_SIZE = 50;

export const webhookEventKey = (ref: WebhookEventRef) => ({ pk: keys.webhookEventsPk(ref.tenantId), sk: ref.sk });

/**
 * The event and its tenant's settings (the webhook it goes to), in one consistent read of both: what
 * one delivery attempt needs.
 */
export async function loadWebhookEventAndSettings(ref: WebhookEventRef): Promise<{ event?: WebhookEvent; settings: VersionedSettings }> {
  const eventKey = webhookEventKey(ref);
  const settingsKey = keys.settings(ref.tenantId);
  const { Responses, UnprocessedKeys } = await documentStore().send(
    new BatchGetCommand({ RequestItems: { [mainTableName()]: { Keys: [eventKey, settingsKey], ConsistentRead: true } } }),
  );
  if (UnprocessedKeys && Object.keys(UnprocessedKeys).length > 0) throw new Error('the store left part of a read undone; the delivery is tried again');
  const items = Responses?.[mainTableName()] ?? [];
  const found = (key: { pk: string; sk: string }) => items.find((item) => item.pk === key.pk && item.sk === key.sk);
  const event = found(eventKey);
  return { ...(event ? { event: { ...event, tenantId: ref.tenantId } as WebhookEvent } : {}), settings: settingsOfItem(found(settingsKey)) };
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
