import { webhookEvents } from '../flows/flows.ts';
import { flowOn } from '../flows/on-table.ts';
import type { WebhookEvent } from '../store/webhook-events.ts';
import { webhookEventKey } from '../store/webhook-events.ts';

/**
 * Queues a stored event's delivery (the `webhooks` flow): the message names the event, its group is the
 * tenant (on a standard queue that makes it an SQS fair queue, so one tenant's backlog does not hold up
 * another's: docs/decisions.md, "Fair webhook delivery"). A failed send is left to the sweep.
 */
export function announceWebhookEvent(event: Pick<WebhookEvent, 'tenantId' | 'sk'>): Promise<void> {
  return flowOn(webhookEvents).announce({ ...webhookEventKey(event), tenantId: event.tenantId });
}
