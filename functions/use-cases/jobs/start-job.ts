import { randomBytes } from 'node:crypto';
import type { Context } from 'aws-lambda';
import { type Answer, type AuditUnit, auditScope, unchanged } from '../../../shared/core/audit.ts';
import { clock } from '../../../shared/core/clock.ts';
import { Conflict } from '../../../shared/core/errors.ts';
import { log } from '../../../shared/core/logger.ts';
import { queueJobRun } from '../../../shared/jobs/job-queue.ts';
import { createJob } from '../../../shared/store/job-writes.ts';
import { findJob, type Job, type JobStatus } from '../../../shared/store/jobs.ts';
import type { User } from '../../../shared/store/users.ts';
import { claimUpload, releaseUpload, uploadHolder, type DirectUpload, type UploadPurpose } from '../../../shared/store/uploads.ts';
import { findCompletedUpload } from '../../../shared/uploads/direct-uploads.ts';

/**
 * A job that works through an upload (an audience's list, a video): one job per upload, stored and
 * queued, answered at once (docs/decisions.md "Uploads and audience jobs").
 */
export interface JobStart {
  tenantId: string;
  user: User;
  context: Context;
  uploadId: string;
  audit: AuditUnit;
  /** what the upload must have been made for (default: a contact list) */
  purposes?: readonly UploadPurpose[];
  /** a media file's (platform, ad account): it has one job there, beside any other platform's */
  slot?: string;
}

/** How long a start waits for a concurrent start of the same upload to store its job (real time: it waits on another request). */
const CONCURRENT_START_WAIT_MS = 10_000;
const POLL_MS = 100;

/**
 * One job per upload, whatever the Idempotency-Key: the first start claims the upload, does its
 * upstream work and stores the job; any other start (concurrent or later) answers that job. A start
 * that fails before its job is stored lets the upload go, so a retry can start it.
 */
export async function startUploadJob(
  start: JobStart,
  begin: (jobId: string, upload: DirectUpload) => Promise<{ job: Job; about?: Record<string, string> }>,
): Promise<Answer<Job>> {
  // the upload's job, even when it has ended (a succeeded job's file is gone): the same answer as while it ran
  const earlier = await jobOfUpload(start);
  if (earlier) return unchanged(earlier);
  const upload = await findCompletedUpload(start.tenantId, start.user.userId, start.uploadId, start.purposes);
  const jobId = newJobId();
  const waitUntil = performance.now() + CONCURRENT_START_WAIT_MS;
  while (performance.now() < waitUntil) {
    const holder = await claimUpload(start.tenantId, start.uploadId, jobId, start.slot);
    if (holder === jobId) {
      let job: Job;
      try {
        const begun = await begin(jobId, upload);
        job = begun.job;
        const scope = auditScope();
        if (scope) job.startedBy = { actor: scope.actor, ...(scope.requestId ? { requestId: scope.requestId } : {}) };
        await createJob(job, start.audit.event({ jobId, ...begun.about }));
      } catch (error) {
        await releaseUpload(start.tenantId, start.uploadId, jobId, start.slot);
        throw error;
      }
      await queueRun(job);
      return job;
    }
    // another start holds the upload: its job, once stored (or the claim again, if that start failed)
    while (performance.now() < waitUntil) {
      const job = holder ? await findJob(start.tenantId, holder) : undefined;
      if (job) return unchanged(job); // the job another start stored: that start recorded it
      if ((await uploadHolder(start.tenantId, start.uploadId, start.slot)) !== holder) break;
      await clock.sleep(POLL_MS);
    }
  }
  throw new Conflict(`Another request is starting the job of upload ${start.uploadId}; retry in a few seconds to get its jobId.`);
}

/**
 * A job no upload carries (a campaign launch, a video at a URL): stored with the call's audit event,
 * in the name of whoever made the call, then queued. Answered at once.
 */
export async function startJob(
  call: { tenantId: string; user: User; audit: AuditUnit },
  work: Pick<Job, 'type' | 'request' | 'checkpoint'>,
  jobId = newJobId(),
  /** the size of a file the job reads (a list staged by the request) */
  totalBytes = 0,
): Promise<{ jobId: string; status: JobStatus }> {
  const now = clock.date().toISOString();
  const scope = auditScope();
  const job: Job = {
    jobId,
    tenantId: call.tenantId,
    userId: call.user.userId,
    status: 'queued',
    progress: { bytesRead: 0, totalBytes, rowsRead: 0, rowsSent: 0, batchesSent: 0 },
    createdAt: now,
    updatedAt: now,
    ...work,
    ...(scope ? { startedBy: { actor: scope.actor, ...(scope.requestId ? { requestId: scope.requestId } : {}) } } : {}),
  };
  await createJob(job, call.audit.event({ jobId: job.jobId }));
  await queueRun(job);
  return { jobId: job.jobId, status: job.status };
}

export const newJobId = () => `job_${randomBytes(16).toString('hex')}`;

/** The job that already holds the upload, when it is this user's. */
export async function jobOfUpload(start: Pick<JobStart, 'tenantId' | 'uploadId' | 'user' | 'slot'>): Promise<Job | undefined> {
  const holder = await uploadHolder(start.tenantId, start.uploadId, start.slot);
  const job = holder ? await findJob(start.tenantId, holder) : undefined;
  return job?.userId === start.user.userId ? job : undefined;
}

export function newJob<Request, Checkpoint>(
  jobId: string,
  start: JobStart,
  upload: DirectUpload,
  type: Job['type'],
  status: JobStatus,
  work: Pick<Job<Request, Checkpoint>, 'request' | 'checkpoint'>,
): Job<Request, Checkpoint> {
  const now = clock.date().toISOString();
  return {
    jobId,
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
async function queueRun(job: Job): Promise<void> {
  await queueJobRun({ tenantId: job.tenantId, jobId: job.jobId }).catch((error: unknown) => {
    log().warn('job stored but not queued; the sweep will queue it', { jobId: job.jobId, reason: (error as Error).name });
  });
}

/** The upload's ETag, when it has one: a job reads exactly the object that was checked. */
export const etagOf = (upload: DirectUpload) => (upload.etag ? { etag: upload.etag } : {});
