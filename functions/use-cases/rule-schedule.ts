import { clock } from '../../shared/core/clock.ts';
import { sendMessage } from '../../shared/queue/send.ts';
import { leaseRuleRun } from '../../shared/store/rule-writes.ts';
import { dueRules } from '../../shared/store/rules.ts';
import type { RuleRunMessage } from './rule-runs.ts';

/**
 * The scheduler's pass (docs/operations.md, "Rules"): the rules due by now, from the index on their
 * next run time; each claimed for LEASE_MS (so the next pass does not queue it again while its run is
 * on its way, and does once the lease is over if the run never ended); one run per (tenant, user,
 * platform) group, queued or, for `npm run admin -- run-rules` on a stopped local stack, run at once.
 */
export const LEASE_MS = 30 * 60 * 1000;

export type Dispatch = (message: RuleRunMessage) => Promise<void>;
export const queueRuleRun: Dispatch = (message) => sendMessage('RuleRuns', message);

export async function scheduleDueRules(
  dispatch: Dispatch = queueRuleRun,
  now = clock.now(),
  options: { afterRestart?: boolean } = {},
): Promise<{ rules: number; groups: number }> {
  const groups = new Map<string, RuleRunMessage>();
  let rules = 0;
  // after a restart the claims of the last process are over: a claimed rule (its index item moved to
  // its lease's end) is due if its run time has come
  for await (const due of dueRules(options.afterRestart ? now + LEASE_MS + 1 : now)) {
    if (Date.parse(due.scheduledAt) > now) continue;
    if (!(await leaseRuleRun(due, now + LEASE_MS))) continue;
    const key = `${due.tenantId}\u0000${due.userId}\u0000${due.platform}`;
    const group = groups.get(key) ?? { tenantId: due.tenantId, userId: due.userId, platform: due.platform, rules: [] };
    group.rules.push({ ruleId: due.ruleId, scheduledAt: due.scheduledAt });
    groups.set(key, group);
    rules++;
  }
  for (const group of groups.values()) await dispatch(group);
  return { rules, groups: groups.size };
}
