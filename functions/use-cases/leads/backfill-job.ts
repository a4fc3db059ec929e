import type * as z from 'zod';
import type { AuditUnit } from '../../../shared/core/audit.ts';
import { clock } from '../../../shared/core/clock.ts';
import { InvalidRequest } from '../../../shared/core/errors.ts';
import { leadKnown } from '../../../shared/store/leads.ts';
import type { Job, JobStatus } from '../../../shared/store/jobs.ts';
import type { User } from '../../../shared/store/users.ts';
import { defineJobKind } from '../jobs/job-kind.ts';
import type { JobRun } from '../jobs/job-run.ts';
import { startJob } from '../jobs/start-job.ts';
import { backfillCheckpointSchema, backfillRequestSchema } from './backfill-records.ts';
import { deliverLead } from './deliver-lead.ts';
import { LEAD_SOURCES, type LeadPlatform, leadTargetOf } from './lead-sources.ts';

/**
 * `POST /leads/backfill` as a job (docs/leads.md, "Backfill"): the leads of the user's Page or ad
 * account since `since` (at most 90 days back: what the platforms keep), each new one delivered as the
 * webhook path delivers it. Counted as it goes; a run that stops part-way reads the window again, and
 * the leads it delivered already are known and skipped.
 */
type BackfillJob = Job<z.infer<typeof backfillRequestSchema>, z.infer<typeof backfillCheckpointSchema>>;

export const leadsBackfillJob = defineJobKind({
  type: 'leads_backfill',
  request: backfillRequestSchema,
  checkpoint: backfillCheckpointSchema,
  platformOf: (request) => request.platform,
  run: runBackfill,
  endEvents: { succeeded: 'leads_backfill.succeeded', failed: 'leads_backfill.failed' },
  endAudit: (job) => ({
    action: 'leads.backfilled',
    target: { type: 'leads_backfill_job', id: job.jobId },
    platform: job.request.platform,
    changes: { leadsDelivered: { to: job.checkpoint.leadsDelivered } },
  }),
});

async function runBackfill(run: JobRun, job: BackfillJob, user: User): Promise<{ leadsFound: number; leadsDelivered: number }> {
  const { request, checkpoint } = job;
  checkpoint.leadsFound = 0; // the window is read again from its start; what was delivered is known
  for await (const lead of LEAD_SOURCES[request.platform].since(user, run.context, request.target, request.sinceMs, request.untilMs)) {
    run.checkTime();
    checkpoint.leadsFound++;
    if (!(await leadKnown(job.tenantId, lead.platform, lead.leadId)) && (await deliverLead(job.tenantId, user.userId, lead))) {
      checkpoint.leadsDelivered++;
      await run.save();
    }
  }
  return { leadsFound: checkpoint.leadsFound, leadsDelivered: checkpoint.leadsDelivered };
}

/** The backfill started: the user's target (checked for the permissions leads need), stored and queued. */
function startBackfill(
  call: { tenantId: string; user: User; audit: AuditUnit },
  platform: LeadPlatform,
  sinceMs: number,
  untilMs: number,
): Promise<{ jobId: string; status: JobStatus }> {
  const target = leadTargetOf(call.user, platform);
  return startJob(call, { type: 'leads_backfill', request: { platform, target, sinceMs, untilMs }, checkpoint: { leadsFound: 0, leadsDelivered: 0 } });
}

/** What the platforms keep: a backfill reads at most this far back. */
const MAX_BACKFILL_DAYS = 90;

/** `backfill`: the window checked (at most 90 days back, not in the future), then the job started. */
export function startLeadsBackfill(
  call: { tenantId: string; user: User; audit: AuditUnit },
  platform: LeadPlatform,
  since: string,
): Promise<{ jobId: string; status: JobStatus }> {
  const now = clock.now();
  const sinceMs = Date.parse(since);
  if (sinceMs < now - MAX_BACKFILL_DAYS * 86_400_000 || sinceMs > now)
    throw new InvalidRequest(`since: a backfill reads at most ${MAX_BACKFILL_DAYS} days back (what the platforms keep), and not from the future.`, [
      { path: 'since', message: `must be within the last ${MAX_BACKFILL_DAYS} days` },
    ]);
  return startBackfill(call, platform, sinceMs, now);
}
