import { createCustomAudience, newSessionId, type AudienceMode } from '../../../shared/platforms/social/custom-audiences.ts';
import { socialSession } from '../../../shared/platforms/social/session.ts';
import { type Answer, answerOf, likewise } from '../../../shared/core/audit.ts';
import { etagOf, type JobStart, newJob, startUploadJob } from '../jobs/start-job.ts';
import { checkContactFile, newUploadProgress } from './social-audience-batches.ts';
import { checkUploadInRequest } from './check-in-request.ts';
import { socialAudienceJob } from './social-audience-job.ts';

/**
 * Operations 7 and 8 given an `uploadId` (docs/decisions.md "Uploads and audience jobs"): the upload is
 * found (404 otherwise), the job stored and queued, and the answer comes at once. Operation 7 creates
 * the audience first (mode create) and opens the upload session the job sends in. An upload starts
 * one job: a second start answers the first's. Operation 8's start is professional-start-audience-job.ts:
 * a module each, so that neither function's bundle holds the other platform's job.
 */

export async function startSocialAudienceJob(
  start: JobStart & { audienceName: string; mode: AudienceMode; audienceId?: string },
): Promise<Answer<Record<string, unknown>>> {
  const session = socialSession(start.user, start.context); // a user without a social connection is a 409
  const started = await startUploadJob(start, async (jobId, upload) => {
    await checkUploadInRequest(upload, (open) => checkContactFile(open)); // a bad file makes no audience
    const audienceId = start.mode === 'create' ? await createCustomAudience(session, session.connection.adAccountId, start.audienceName) : start.audienceId;
    const job = newJob(jobId, start, upload, 'social_audience', 'running', {
      request: { objectKey: upload.objectKey, ...etagOf(upload), mode: start.mode, ...(audienceId ? { audienceId } : {}), audienceName: start.audienceName },
      checkpoint: { ...newUploadProgress(newSessionId()), ...(audienceId ? { audienceId } : {}), localInvalid: 0, localSamples: {} },
    });
    return { job, ...(audienceId ? { about: { audienceId } } : {}) };
  });
  const job = answerOf(started);
  const { request, checkpoint } = socialAudienceJob.read(job);
  return likewise(started, {
    audienceId: request.audienceId,
    audienceName: request.audienceName,
    session_id: String(checkpoint.sessionId),
    num_received: 0,
    num_invalid_entries: 0,
    invalid_entry_samples: {},
    jobId: job.jobId,
    status: job.status,
  });
}
