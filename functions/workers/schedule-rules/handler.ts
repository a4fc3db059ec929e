import { clock } from '../../../shared/core/clock.ts';
import { log, withRequestLogger } from '../../../shared/core/logger.ts';
import { scheduleDueRules } from '../../use-cases/rule-schedule.ts';
import { declaration } from './declaration.ts';

/** Every 15 minutes (`npm start`: RULES_INTERVAL_SECONDS): the due rules, one queued run per (tenant, user, platform). */
export async function handler(): Promise<{ rules: number; groups: number }> {
  return withRequestLogger({ requestId: `rules-${clock.now()}`, operation: declaration.operation }, async () => {
    const queued = await scheduleDueRules();
    if (queued.rules > 0) log().info('rule runs queued', queued);
    return queued;
  });
}
