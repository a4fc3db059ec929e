import { InvalidRowSamples, type ContactFileResume } from '../../../shared/audiences/contact-file.ts';
import { createCustomAudience } from '../../../shared/platforms/social/custom-audiences.ts';
import { socialSession } from '../../../shared/platforms/social/session.ts';
import * as z from 'zod';
import { audienceModeSchema } from '../../../shared/schemas/audiences.ts';
import type { Job } from '../../../shared/store/jobs.ts';
import type { User } from '../../../shared/store/users.ts';
import { defineJobKind } from '../jobs/job-kind.ts';
import { dropContacts } from './contacts-kept.ts';
import type { JobRun } from '../jobs/job-run.ts';
import { readJobFile } from '../jobs/job-files.ts';
import {
  checkContactFile,
  sendInBatches,
  sendRecordedBatch,
  socialAudienceResult,
  type SocialAudienceResult,
  uploadProgressSchema,
} from './social-audience-batches.ts';

/**
 * Operation 7 as a job (run by the worker, or by the request that carried the file): the file checked whole (once), then its rows in batches of 10,000 in the one
 * upload session the request opened. Each acknowledged batch moves the checkpoint in the same write:
 * its number, where the file goes on after its last row (a resume reads from that byte on), the counts
 * and the invalid samples so far. A resumed run sends the batch in flight again with its number.
 */
const CHECK_PROGRESS_EVERY_ROWS = 50_000;

export const socialJobRequestSchema = z.object({
  objectKey: z.string(),
  /** the version of the file the start found: every read of the job asks for it (If-Match) */
  etag: z.string().optional(),
  mode: audienceModeSchema,
  /** the audience the rows go to; created once the file has been checked when the request had none yet */
  audienceId: z.string().optional(),
  audienceName: z.string(),
});
export type SocialJobRequest = z.infer<typeof socialJobRequestSchema>;

const contactFileResume = z.custom<ContactFileResume>(
  (value) => z.object({ byte: z.number(), line: z.number(), delimiter: z.string(), dataRows: z.number() }).safeParse(value).success,
);

/** After the check of the whole file: how many rows, and the sending so far. */
export const socialCheckpointSchema = uploadProgressSchema.extend({
  usableRows: z.number().optional(),
  /** just past the last acknowledged batch's last row: a resume reads the file from there */
  resumeAt: contactFileResume.optional(),
  localInvalid: z.number(),
  localSamples: z.record(z.string(), z.string()),
});
export type SocialCheckpoint = z.infer<typeof socialCheckpointSchema>;

export const socialAudienceJob = defineJobKind({
  type: 'social_audience',
  request: socialJobRequestSchema,
  checkpoint: socialCheckpointSchema,
  platformOf: () => 'social',
  run: runSocialAudienceJob,
  endEvents: { succeeded: 'audience_job.succeeded', failed: 'audience_job.failed' },
  endAudit: (job) => ({
    action: job.request.mode === 'create' ? 'audience.created' : 'audience.updated',
    target: { type: 'audience', id: job.request.audienceId ?? job.jobId },
    platform: 'social',
    changes: { job: { to: job.jobId }, rows: { to: job.progress.rowsSent } },
  }),
  afterEnd: dropContacts,
});

export async function runSocialAudienceJob(run: JobRun, job: Job<SocialJobRequest, SocialCheckpoint>, user: User): Promise<SocialAudienceResult> {
  const { request, checkpoint } = job;
  const session = socialSession(user, run.context);

  if (checkpoint.usableRows === undefined) {
    let rowsRead = 0;
    const checked = await checkContactFile(
      () => readJobFile(run, request, { countBytes: rowsRead === 0 }),
      () => {
        job.progress.rowsRead = Math.max(job.progress.rowsRead, ++rowsRead);
        if (rowsRead % CHECK_PROGRESS_EVERY_ROWS === 0) void run.save().catch(() => undefined); // the heartbeat's saves, more often
      },
    );
    checkpoint.usableRows = checked.usableRows;
    job.progress.rowsRead = checked.dataRows;
    await run.save();
  }
  const usableRows = checkpoint.usableRows;
  if (!request.audienceId) {
    // a request that creates its audience does so once its file has checked out: a bad file creates nothing
    request.audienceId = await createCustomAudience(session, session.connection.adAccountId, request.audienceName);
    checkpoint.audienceId = request.audienceId;
    await run.save();
  }
  const audienceId = request.audienceId;

  const local = Object.assign(new InvalidRowSamples(), { count: checkpoint.localInvalid, samples: { ...checkpoint.localSamples } });
  // what an acknowledged batch moves the checkpoint to, applied by the save that records its acknowledgement
  let covered: Pick<SocialCheckpoint, 'resumeAt' | 'localInvalid' | 'localSamples'> | undefined;
  const save = () => {
    if (covered && checkpoint.inFlightBatch === undefined) {
      Object.assign(checkpoint, covered);
      covered = undefined;
      job.progress.rowsSent = checkpoint.rowsAcked;
      job.progress.batchesSent = checkpoint.batchesAcked;
    }
    return run.save();
  };

  let batchSeq = checkpoint.batchesAcked;
  const from = checkpoint.resumeAt;
  await sendInBatches(
    await readJobFile(run, request, { fromByte: from?.byte }),
    {
      invalid: (line, invalid) => local.add(line, invalid),
      batch: async (rows, schema, resumeAfter) => {
        run.checkTime();
        batchSeq++;
        covered = { resumeAt: resumeAfter, localInvalid: local.count, localSamples: { ...local.samples } };
        await sendRecordedBatch({ session, mode: request.mode, audienceId, batchSeq, usableRows, schema, rows }, checkpoint, save);
      },
    },
    { from },
  );
  return socialAudienceResult(audienceId, request.audienceName, local, checkpoint);
}
