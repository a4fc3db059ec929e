import { clock } from '../../../shared/core/clock.ts';
import { withRequestLogger } from '../../../shared/core/logger.ts';
import { sweepLeads, type SweepSummary } from '../../use-cases/leads/sweep-pass.ts';
import { declaration } from './declaration.ts';

/**
 * The leads sweep (hourly; `npm start`: every LEADS_SWEEP_SECONDS): the lost bodies queued again and
 * one message per subscription, which process_platform_events sweeps (docs/leads.md, "Missed leads").
 */
export async function handler(): Promise<SweepSummary> {
  return withRequestLogger({ requestId: `sweep-${clock.now()}`, operation: declaration.operation }, () => sweepLeads());
}
