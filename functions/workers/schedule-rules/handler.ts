import { clock } from '../../../shared/core/clock.ts';
import { log, withRequestLogger } from '../../../shared/core/logger.ts';
import { queueOrphanedApprovals } from '../../use-cases/rules/approval-sweep.ts';
import { queueRuleRun, scheduleDueRules } from '../../use-cases/rules/rule-schedule.ts';
import { declaration } from './declaration.ts';

/**
 * Every 15 minutes (`npm start`: RULES_INTERVAL_SECONDS): the due rules, one queued run per (tenant,
 * user, platform). `afterRestart` (the local stack's start, when no run of the last process can be
 * alive): the rules whose runs it had claimed are queued again at once, not after their lease. Each
 * pass also queues the approvals whose process died, for the rule worker to finish.
 */
export async function handler(event: { afterRestart?: boolean } = {}): Promise<{ rules: number; groups: number; approvals: number }> {
  return withRequestLogger({ requestId: `rules-${clock.now()}`, operation: declaration.operation }, async () => {
    const queued = await scheduleDueRules(queueRuleRun, clock.now(), { afterRestart: Boolean(event.afterRestart) });
    if (queued.rules > 0) log().info('rule runs queued', queued);
    const approvals = await queueOrphanedApprovals();
    if (approvals > 0) log().warn('approvals whose process died queued to be finished', { approvals });
    return { ...queued, approvals };
  });
}
