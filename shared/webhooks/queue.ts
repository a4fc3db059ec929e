import { sendMessage } from '../queue/send.ts';
import type { WebhookEventRef } from '../store/webhook-events.ts';

/**
 * Queues a webhook event's delivery: the message carries only where the event is stored. Its group is
 * the tenant: on a standard queue that makes it an SQS fair queue, so one tenant's backlog (a receiver
 * that hangs) does not hold up another tenant's events (docs/decisions.md, "Fair webhook delivery").
 */
export function queueDelivery(ref: WebhookEventRef): Promise<void> {
  return sendMessage('WebhookDeliveries', { tenantId: ref.tenantId, sk: ref.sk }, { groupId: ref.tenantId });
}
