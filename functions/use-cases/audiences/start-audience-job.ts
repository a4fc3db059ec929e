import { checkProfessionalList, type ListType } from '../../../shared/audiences/professional-list.ts';
import { professionalSession } from '../../../shared/platforms/professional/session.ts';
import { createCustomAudience, newSessionId, type AudienceMode } from '../../../shared/platforms/social/custom-audiences.ts';
import { socialSession } from '../../../shared/platforms/social/session.ts';
import { type Answer, answerOf, likewise } from '../../../shared/core/audit.ts';
import type { JobStatus } from '../../../shared/store/jobs.ts';
import type { DirectUpload } from '../../../shared/store/uploads.ts';
import { type JobStart, newJob, startUploadJob } from '../jobs/start-job.ts';
import { checkContactFile, newUploadProgress } from './social-audience-batches.ts';
import { checkUploadInRequest } from './check-in-request.ts';
import { socialAudienceJob } from './social-audience-job.ts';
import { defaultAudienceName } from './upload-in-request.ts';

/**
 * Operations 7 and 8 given an `uploadId` (docs/decisions.md "Uploads and audience jobs"): the upload is
 * found (404 otherwise), the job stored and queued, and the answer comes at once. Operation 7 creates
 * the audience first (mode create) and opens the upload session the job sends in. An upload starts
 * one job: a second start answers the first's.
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

export async function startProfessionalAudienceJob(
  start: JobStart & { type: ListType; audienceName?: string },
): Promise<Answer<{ jobId: string; status: JobStatus }>> {
  professionalSession(start.user, start.context); // a user without a professional connection is a 409
  const started = await startUploadJob(start, async (jobId, upload) => {
    await checkUploadInRequest(upload, async (open) => checkProfessionalList(start.type, await open()));
    return {
      job: newJob(jobId, start, upload, 'professional_audience', 'queued', {
        request: { objectKey: upload.objectKey, ...etagOf(upload), type: start.type, audienceName: start.audienceName ?? defaultAudienceName(start.type) },
        checkpoint: {},
      }),
    };
  });
  const job = answerOf(started);
  return likewise(started, { jobId: job.jobId, status: job.status });
}

const etagOf = (upload: DirectUpload) => (upload.etag ? { etag: upload.etag } : {});
