import { config } from '../core/config.ts';
import { log } from '../core/logger.ts';
import type { WebhookEventType } from '../schemas/tenant.ts';
import type { WebhookEvent } from '../store/webhook-events.ts';
import { recordWebhookEvent } from './events.ts';
import { queueDelivery } from './queue.ts';

/**
 * Sends an event to the tenant's webhook: written to the store first, then queued. A failure to
 * queue loses nothing: the event stays pending and the sweep queues it once it is overdue.
 * Returns the stored event, or undefined when the tenant takes no such event.
 */
export async function emitWebhookEvent(tenantId: string, type: WebhookEventType, data: Record<string, unknown>): Promise<WebhookEvent | undefined> {
  // queued at once, so the sweep waits its threshold before it queues the event again
  const event = await recordWebhookEvent(tenantId, type, data, { dueInMs: config().WEBHOOK_SWEEP_AFTER_SECONDS * 1000 });
  if (!event) return undefined;
  await queueDelivery({ tenantId, sk: event.sk }).catch((error: unknown) => {
    log().warn('webhook event stored but not queued; the sweep will queue it', { eventId: event.id, reason: (error as Error).name });
  });
  return event;
}
