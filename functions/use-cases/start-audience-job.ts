import { randomBytes } from 'node:crypto';
import type { Context } from 'aws-lambda';
import { clock } from '../../shared/clock.ts';
import type { ListType } from '../../shared/audiences/professional-list.ts';
import { log } from '../../shared/http/logger.ts';
import { queueJobRun } from '../../shared/jobs/job-queue.ts';
import { professionalSession } from '../../shared/platforms/professional/session.ts';
import { createCustomAudience, newSessionId, type AudienceMode } from '../../shared/platforms/social/custom-audiences.ts';
import { socialSession } from '../../shared/platforms/social/session.ts';
import { createJob } from '../../shared/store/audience-job-writes.ts';
import type { AudienceJob, JobStatus } from '../../shared/store/audience-jobs.ts';
import { newUploadProgress } from '../../shared/store/upload-progress.ts';
import type { User } from '../../shared/store/users.ts';
import { findCompletedUpload, type DirectUpload } from '../../shared/uploads/direct-uploads.ts';
import { defaultAudienceName } from './upload-professional-audience.ts';

/**
 * Operations 7 and 8 given an `uploadId` (DESIGN.md "Uploads and audience jobs"): the upload is
 * found (404 otherwise), the job stored and queued, and the answer comes at once. Operation 7 creates
 * the audience first (mode create) and opens the upload session the job sends in.
 */
interface JobStart {
  tenantId: string;
  user: User;
  context: Context;
  uploadId: string;
}

export async function startSocialAudienceJob(
  start: JobStart & { audienceName: string; mode: AudienceMode; audienceId?: string },
): Promise<Record<string, unknown>> {
  const session = socialSession(start.user, start.context); // a user without a social connection is a 409
  const upload = await findCompletedUpload(start.tenantId, start.user.userId, start.uploadId);
  const audienceId = start.mode === 'create' ? await createCustomAudience(session, session.connection.adAccountId, start.audienceName) : (start.audienceId as string);
  const sessionId = newSessionId();
  const job = newJob(start, upload, 'social_audience', 'running', {
    request: { objectKey: upload.objectKey, mode: start.mode, audienceId, audienceName: start.audienceName },
    checkpoint: { ...newUploadProgress(sessionId), audienceId, localInvalid: 0, localSamples: {} },
  });
  await queue(job);
  return {
    audienceId,
    audienceName: start.audienceName,
    session_id: String(sessionId),
    num_received: 0,
    num_invalid_entries: 0,
    invalid_entry_samples: {},
    jobId: job.jobId,
    status: job.status,
  };
}

export async function startProfessionalAudienceJob(start: JobStart & { type: ListType; audienceName?: string }): Promise<{ jobId: string; status: JobStatus }> {
  professionalSession(start.user, start.context); // a user without a professional connection is a 409
  const upload = await findCompletedUpload(start.tenantId, start.user.userId, start.uploadId);
  const job = newJob(start, upload, 'professional_audience', 'queued', {
    request: { objectKey: upload.objectKey, type: start.type, audienceName: start.audienceName ?? defaultAudienceName(start.type) },
    checkpoint: {},
  });
  await queue(job);
  return { jobId: job.jobId, status: job.status };
}

function newJob(start: JobStart, upload: DirectUpload, type: AudienceJob['type'], status: JobStatus, work: Pick<AudienceJob, 'request' | 'checkpoint'>): AudienceJob {
  const now = clock.date().toISOString();
  return {
    jobId: `job_${randomBytes(16).toString('hex')}`,
    tenantId: start.tenantId,
    userId: start.user.userId,
    type,
    status,
    progress: { bytesRead: 0, totalBytes: upload.contentLength, rowsRead: 0, rowsSent: 0, batchesSent: 0 },
    createdAt: now,
    updatedAt: now,
    ...work,
  };
}

/** Stored first, then queued: a message that could not be sent is made good by the sweep. */
async function queue(job: AudienceJob): Promise<void> {
  await createJob(job);
  await queueJobRun({ tenantId: job.tenantId, jobId: job.jobId }).catch((error: unknown) => {
    log().warn('audience job stored but not queued; the sweep will queue it', { jobId: job.jobId, reason: (error as Error).name });
  });
}
