import { log } from '../../../shared/core/logger.ts';
import { sendMessage } from '../../../shared/queue/send.ts';
import { allLeadSubscriptions } from '../../../shared/store/lead-subscriptions.ts';

/**
 * The leads sweep (docs/leads.md, "Missed leads"): a platform webhook that never came, a lead the
 * webhook could not read (a grant that had expired). (A body whose message was lost is the event
 * flows' sweep's: sweep-flows.) The scheduled pass fans out one message per subscription; each
 * subscription's worker run (sweep-leads.ts) delivers its missed leads. One pass costs one query and
 * a message per subscription, whatever the number of tenants, and a slow or refused account holds up
 * no other. This module only reads and queues, so the scheduled function's bundle holds no write and
 * no platform.
 */

export interface SweepSummary {
  /** subscriptions queued to be swept, one message each */
  subscriptions: number;
}

export async function sweepLeads(): Promise<SweepSummary> {
  const summary: SweepSummary = { subscriptions: 0 };
  for await (const { platform, target, tenantId, userId } of allLeadSubscriptions()) {
    await sendMessage('PlatformEvents', { sweep: { platform, target, tenantId, userId } });
    summary.subscriptions++;
  }
  log().info('leads sweep queued', { ...summary });
  return summary;
}
