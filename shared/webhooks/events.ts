import { randomBytes } from 'node:crypto';
import { clock } from '../core/clock.ts';
import type { WebhookEventType } from '../schemas/tenant.ts';
import { loadTenantSettings } from '../store/tenant-settings.ts';
import { storeWebhookEvent } from '../store/webhook-event-writes.ts';
import { type WebhookEvent, webhookDataOwner } from '../store/webhook-events.ts';
import { seal } from '../store/sealing.ts';
import { subscribed } from './subscription.ts';
import { keys } from '../store/keys.ts';

/**
 * Writes an event to the store, pending: the sweep queues it again if it is still pending `dueInMs`
 * from now. With `relay`, the caller does not queue it: the outbox relay does, from the table's stream.
 */
export async function recordWebhookEvent(
  tenantId: string,
  type: WebhookEventType,
  data: Record<string, unknown>,
  options: { dueInMs: number; relay?: boolean },
): Promise<WebhookEvent | undefined> {
  const event = await newWebhookEvent(tenantId, type, data);
  if (event) await storeWebhookEvent(event, clock.now() + options.dueInMs, options.relay ?? false);
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
  { sealed = false }: { sealed?: boolean } = {},
): Promise<WebhookEvent | undefined> {
  const { webhook } = await loadTenantSettings(tenantId);
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
  };
  if (!sealed) return event;
  return { ...event, data: {}, sealedData: seal(JSON.stringify(data), webhookDataOwner(event)) };
}
