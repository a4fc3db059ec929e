import { randomBytes } from 'node:crypto';
import { clock } from '../core/clock.ts';
import type { WebhookEventType } from '../schemas/tenant-values.ts';
import { loadTenantSettings, type TenantSettings } from '../store/tenant-settings.ts';
import { webhookEventPut } from '../store/webhook-event-writes.ts';
import { type WebhookEvent, webhookDataOwner, webhookEventKey } from '../store/webhook-events.ts';
import { documentStore } from '../store/client.ts';
import { dueState } from '../store/flow-items.ts';
import { webhookEvents } from '../flows/flows.ts';
import { seal } from '../store/sealing.ts';
import { subscribed } from './subscription.ts';
import { keys } from '../store/keys.ts';

/**
 * Writes an event to the store, pending (an item of the `webhooks` flow): the caller queues it, or with
 * `relay` leaves that to the flow's relay, from the table's stream. The sweep queues it again if it is
 * still pending a lease from now.
 */
export async function recordWebhookEvent(
  tenantId: string,
  type: WebhookEventType,
  data: Record<string, unknown>,
  { relay = false }: { relay?: boolean } = {},
): Promise<WebhookEvent | undefined> {
  const event = await newWebhookEvent(tenantId, type, data, { relay });
  if (event) await documentStore().send(webhookEventPut(event));
  return event;
}

/**
 * The event, not stored yet (a caller stores it with what it announces, in one transaction), or
 * undefined when the tenant takes no such event. `sealed`: its data is personal (a lead) and is kept
 * sealed at rest; only the delivery opens it.
 */
export async function newWebhookEvent(
  tenantId: string,
  type: WebhookEventType,
  data: Record<string, unknown>,
  { sealed = false, relay = false, settings }: { sealed?: boolean; relay?: boolean; settings?: TenantSettings } = {},
): Promise<WebhookEvent | undefined> {
  // the caller may have read the settings with what it reads already (one request for a lead)
  const { webhook } = settings ?? (await loadTenantSettings(tenantId));
  if (!subscribed(webhook, type)) return undefined;
  const now = clock.now();
  const id = `msg_${randomBytes(16).toString('hex')}`;
  const event: WebhookEvent = {
    tenantId,
    sk: keys.webhookEvent(now, id),
    id,
    type,
    data,
    createdAt: new Date(now).toISOString(),
    status: 'pending',
    attempts: 0,
    lastStatus: null,
    lastAttemptAt: null,
    due: dueState(webhookEvents.name, webhookEventKey({ tenantId, sk: keys.webhookEvent(now, id) }), now + webhookEvents.leaseMs(), relay),
  };
  if (!sealed) return event;
  return { ...event, data: {}, sealedData: seal(JSON.stringify(data), webhookDataOwner(event)) };
}
