import { clock } from '../../../shared/core/clock.ts';
import { sendMessage } from '../../../shared/queue/send.ts';
import { claimRuleGroup } from '../../../shared/store/rule-group-writes.ts';
import { dueGroups } from '../../../shared/store/rule-groups.ts';
import type { RuleRunMessage } from './rule-runs.ts';

/**
 * The scheduler's pass (docs/operations.md, "Rules"): the (user, platform) groups due by now, from the
 * index on their earliest next run; each claimed for LEASE_MS with one write (so the next pass does not
 * queue it again while its run is on its way, and does once the claim is over if the run never ended);
 * one run per group, of its rules due by now, queued or, for `npm run admin -- run-rules` on a stopped
 * local stack, run at once.
 */
export const LEASE_MS = 30 * 60 * 1000;

export type Dispatch = (message: RuleRunMessage) => Promise<void>;
export const queueRuleRun: Dispatch = (message) => sendMessage('RuleRuns', message);

export async function scheduleDueRules(
  dispatch: Dispatch = queueRuleRun,
  now = clock.now(),
  options: { afterRestart?: boolean } = {},
): Promise<{ rules: number; groups: number }> {
  const messages: RuleRunMessage[] = [];
  let rules = 0;
  for await (const due of dueGroups(now)) {
    // after a restart the claims of the last process are over
    const group = await claimRuleGroup(due, now, now + LEASE_MS, options.afterRestart);
    if (!group) continue;
    const dueRules = Object.entries(group.rules)
      .filter(([, state]) => state.nextRunAt !== undefined && Date.parse(state.nextRunAt) <= now)
      .map(([ruleId, state]) => ({ ruleId, scheduledAt: state.nextRunAt as string }));
    if (dueRules.length === 0) continue;
    messages.push({ tenantId: group.tenantId, userId: group.userId, platform: group.platform, rules: dueRules });
    rules += dueRules.length;
  }
  for (const message of messages) await dispatch(message);
  return { rules, groups: messages.length };
}
