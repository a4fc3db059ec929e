import type { Context } from 'aws-lambda';
import { clock } from '../../../shared/core/clock.ts';
import { withRequestLogger } from '../../../shared/core/logger.ts';
import { loadAppCredentials } from '../../../shared/secrets/app-credentials.ts';
import { sweepLeads, type SweepSummary } from '../../use-cases/leads/sweep-leads.ts';
import { declaration } from './declaration.ts';

/** The leads sweep (hourly; `npm start`: every LEADS_SWEEP_SECONDS): missed leads found by time, only new ones delivered. */
export async function handler(_event?: unknown, context?: Context): Promise<SweepSummary> {
  return withRequestLogger({ requestId: `sweep-${clock.now()}`, operation: declaration.operation }, async () => {
    await loadAppCredentials();
    // a schedule's run locally has no Lambda context: its time is the function's timeout
    const ends = clock.now() + (declaration.timeoutSeconds ?? 900) * 1000;
    return sweepLeads(context ?? { getRemainingTimeInMillis: () => ends - clock.now() });
  });
}
