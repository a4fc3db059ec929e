import { clock } from '../../../shared/core/clock.ts';
import { log } from '../../../shared/core/logger.ts';
import { sendMessage } from '../../../shared/queue/send.ts';
import { allLeadSubscriptions } from '../../../shared/store/lead-subscriptions.ts';
import { pendingInbound } from '../../../shared/store/platform-webhooks.ts';

/**
 * The leads sweep (docs/leads.md, "Missed leads"): a platform webhook that never came, a body whose
 * message was lost, a lead the webhook could not read (a grant that had expired). The scheduled pass
 * queues again the bodies whose message was lost and fans out one message per subscription; each
 * subscription's worker run (sweep-leads.ts) delivers its missed leads. One pass costs one query and
 * a message per subscription, whatever the number of tenants, and a slow or refused account holds up
 * no other. This module only reads and queues, so the scheduled function's bundle holds no write and
 * no platform.
 */

/** a body still pending this long after it came had its message lost (or kept failing): queued again */
const PENDING_BODY_MS = 60_000;

export interface SweepSummary {
  /** subscriptions queued to be swept, one message each */
  subscriptions: number;
  /** bodies queued again */
  requeued: number;
}

export async function sweepLeads(): Promise<SweepSummary> {
  const summary: SweepSummary = { subscriptions: 0, requeued: 0 };
  for await (const body of pendingInbound(clock.now() - PENDING_BODY_MS)) {
    await sendMessage('PlatformEvents', body);
    summary.requeued++;
  }
  for await (const { platform, target, tenantId, userId } of allLeadSubscriptions()) {
    await sendMessage('PlatformEvents', { sweep: { platform, target, tenantId, userId } });
    summary.subscriptions++;
  }
  log().info('leads sweep queued', { ...summary });
  return summary;
}
