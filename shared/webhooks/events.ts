import { randomBytes } from 'node:crypto';
import { clock } from '../core/clock.ts';
import type { WebhookEventType } from '../schemas/tenant.ts';
import { loadTenantSettings } from '../store/tenant-settings.ts';
import { storeWebhookEvent } from '../store/webhook-event-writes.ts';
import type { WebhookEvent } from '../store/webhook-events.ts';
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
  await storeWebhookEvent(event, now + options.dueInMs, options.relay ?? false);
  return event;
}
