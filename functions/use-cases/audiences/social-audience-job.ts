import { InvalidRowSamples, type ContactFileResume } from '../../../shared/audiences/contact-file.ts';
import { createCustomAudience } from '../../../shared/platforms/social/custom-audiences.ts';
import { socialSession } from '../../../shared/platforms/social/session.ts';
import type { SocialCheckpoint, SocialJobRequest } from '../../../shared/store/jobs.ts';
import type { User } from '../../../shared/store/users.ts';
import type { JobRun } from '../jobs/job-run.ts';
import { checkContactFile, sendInBatches, sendRecordedBatch, socialAudienceResult, type SocialAudienceResult } from './social-audience-batches.ts';

/**
 * Operation 7 as a job (run by the worker, or by the request that carried the file): the file checked whole (once), then its rows in batches of 10,000 in the one
 * upload session the request opened. Each acknowledged batch moves the checkpoint in the same write:
 * its number, where the file goes on after its last row (a resume reads from that byte on), the counts
 * and the invalid samples so far. A resumed run sends the batch in flight again with its number.
 */
const CHECK_PROGRESS_EVERY_ROWS = 50_000;

export async function runSocialAudienceJob(run: JobRun, user: User): Promise<SocialAudienceResult> {
  const { job } = run;
  const request = job.request as SocialJobRequest;
  const checkpoint = job.checkpoint as SocialCheckpoint<ContactFileResume>;
  const session = socialSession(user, run.context);

  if (checkpoint.usableRows === undefined) {
    let rowsRead = 0;
    const checked = await checkContactFile(
      () => run.read({ countBytes: rowsRead === 0 }),
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
  let covered: Pick<SocialCheckpoint<ContactFileResume>, 'resumeAt' | 'localInvalid' | 'localSamples'> | undefined;
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
    await run.read({ fromByte: from?.byte }),
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
