import { clock } from '../../../shared/core/clock.ts';
import { sendMessage } from '../../../shared/queue/send.ts';
import { approvalsBefore } from '../../../shared/store/proposal-writes.ts';

/**
 * The sweep of approvals whose process died (docs/rules.md, "Rules that ask first"), apart from
 * proposals.ts so that the scheduler's bundle holds no platform: it only queues, the rule worker
 * finishes each (finishApproval).
 *
 * How long an approval may take before the sweep takes it for one whose process died (a request lasts 30 s at most).
 */
const APPROVAL_ORPHANED_AFTER_MS = 5 * 60_000;

/**
 * The scheduler's sweep of approvals (every pass of the rule scheduler): an approval noted more than
 * five minutes ago and not yet forgotten had its process die between the decision and its outcome; one
 * message each, which the rule worker finishes (finishApproval). Answers how many it queued.
 */
export async function queueOrphanedApprovals(now = clock.now()): Promise<number> {
  let queued = 0;
  for await (const { tenantId, userId, proposalId } of approvalsBefore(now - APPROVAL_ORPHANED_AFTER_MS)) {
    await sendMessage('RuleRuns', { finishProposal: { tenantId, userId, proposalId } });
    queued++;
  }
  return queued;
}
