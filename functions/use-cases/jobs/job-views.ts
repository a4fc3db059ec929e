import type { Job, JobProgress, JobType } from '../../../shared/store/jobs.ts';
import { launchCheckpointSchema, launchJobRequestSchema, launchProgressOf } from '../launch/launch-records.ts';
import { backfillCheckpointSchema } from '../leads/backfill-records.ts';
import { mediaCheckpointSchema, mediaJobRequestSchema, mediaProgressOf } from '../media/video-upload.ts';
import { ruleUndoCheckpointSchema } from '../../../shared/schemas/rule-undo.ts';

/**
 * What get_job and the job webhooks show of a job, by type: its progress in the shape
 * shared/schemas/jobs.ts declares for it. Kept apart from the kinds' runs (job-kinds.ts uses the same
 * views) so that get_job's bundle holds no job's platform or write code.
 */
const counters = ({ progress: { bytesRead, totalBytes, rowsRead, rowsSent, batchesSent } }: Job): JobProgress => ({
  bytesRead,
  totalBytes,
  rowsRead,
  rowsSent,
  batchesSent,
});

const read =
  <Request, Checkpoint>(request: { parse(value: unknown): Request }, checkpoint: { parse(value: unknown): Checkpoint }) =>
  (job: Job) => ({ ...job, request: request.parse(job.request), checkpoint: checkpoint.parse(job.checkpoint) });

export const JOB_PROGRESS: Record<JobType, (job: Job) => object> = {
  social_audience: counters,
  professional_audience: counters,
  searchads_audience: counters,
  ad_media: (job) => mediaProgressOf(read(mediaJobRequestSchema, mediaCheckpointSchema)(job)),
  campaign_launch: (job) => launchProgressOf(read(launchJobRequestSchema, launchCheckpointSchema)(job)),
  leads_backfill: ({ checkpoint }) => backfillCheckpointSchema.parse(checkpoint),
  rule_undo: ({ checkpoint }) => ruleUndoCheckpointSchema.parse(checkpoint),
  conversions: counters,
  report_export: counters,
};

/** A job as get_job and the job webhooks show it. */
export function viewOf(job: Job) {
  return {
    jobId: job.jobId,
    type: job.type,
    userId: job.userId,
    status: job.status,
    progress: JOB_PROGRESS[job.type](job),
    ...(job.result ? { result: job.result } : {}),
    ...(job.error ? { error: job.error } : {}),
    ...(job.rolledBack !== undefined ? { rolledBack: job.rolledBack, orphans: job.orphans ?? [] } : {}),
    createdAt: job.createdAt,
    updatedAt: job.updatedAt,
  };
}
