import { randomBytes } from 'node:crypto';
import { clock } from '../clock.ts';
import { config } from '../config.ts';
import { log } from '../http/logger.ts';
import type { WebhookEventType } from '../schemas/tenant.ts';
import { loadTenantSettings } from '../store/tenant-settings.ts';
import { storeWebhookEvent } from '../store/webhook-event-writes.ts';
import type { WebhookEvent } from '../store/webhook-events.ts';
import { queueDelivery } from './queue.ts';
import { subscribed } from './subscription.ts';

/**
 * Sends an event to the tenant's webhook: written to the store first, then queued. A failure to
 * queue loses nothing: the event stays pending and the sweep queues it once it is overdue.
 * Returns the stored event, or undefined when the tenant takes no such event.
 */
export async function emitWebhookEvent(tenantId: string, type: WebhookEventType, data: Record<string, unknown>): Promise<WebhookEvent | undefined> {
  const { webhook } = await loadTenantSettings(tenantId);
  if (!subscribed(webhook, type)) return undefined;
  const now = clock.now();
  const id = `msg_${randomBytes(16).toString('hex')}`;
  const event: WebhookEvent = {
    tenantId,
    sk: `EVENT#${String(now).padStart(13, '0')}#${id}`,
    id,
    type,
    data,
    createdAt: new Date(now).toISOString(),
    status: 'pending',
    attempts: 0,
    lastStatus: null,
    lastAttemptAt: null,
  };
  await storeWebhookEvent(event, now + config().WEBHOOK_SWEEP_AFTER_SECONDS * 1000);
  await queueDelivery({ tenantId, sk: event.sk }).catch((error: unknown) => {
    log().warn('webhook event stored but not queued; the sweep will queue it', { eventId: id, reason: (error as Error).name });
  });
  return event;
}
