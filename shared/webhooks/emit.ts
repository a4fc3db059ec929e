import type { WebhookEventType } from '../schemas/tenant-values.ts';
import type { WebhookEvent } from '../store/webhook-events.ts';
import { recordWebhookEvent } from './events.ts';
import { announceWebhookEvent } from './queue.ts';

/**
 * Sends an event to the tenant's webhook: written to the store first, then queued. A failure to
 * queue loses nothing: the event stays pending and the sweep queues it once it is overdue.
 * Returns the stored event, or undefined when the tenant takes no such event.
 */
export async function emitWebhookEvent(tenantId: string, type: WebhookEventType, data: Record<string, unknown>): Promise<WebhookEvent | undefined> {
  const event = await recordWebhookEvent(tenantId, type, data);
  if (event) await announceWebhookEvent(event);
  return event;
}
