import { clock } from '../../../shared/core/clock.ts';
import { config } from '../../../shared/core/config.ts';
import { log, withRequestLogger } from '../../../shared/core/logger.ts';
import { markPending } from '../../../shared/store/webhook-event-writes.ts';
import { overdueWebhookEvents } from '../../../shared/store/webhook-events.ts';
import { queueDelivery } from '../../../shared/webhooks/queue.ts';
import { declaration } from './declaration.ts';

/**
 * On a schedule: queues again every pending event whose delivery is overdue, which happens only when
 * its message was lost (a crash between storing and queuing, a message dead-lettered).
 */
export async function handler(): Promise<{ requeued: number }> {
  return withRequestLogger({ requestId: `sweep-${clock.now()}`, operation: declaration.operation }, async () => {
    const now = clock.now();
    const overdue = await overdueWebhookEvents(now);
    for (const ref of overdue) {
      await markPending(ref, now + config().WEBHOOK_SWEEP_AFTER_SECONDS * 1000);
      await queueDelivery(ref);
    }
    if (overdue.length > 0) log().warn('overdue webhook events queued again', { count: overdue.length });
    return { requeued: overdue.length };
  });
}
