import { createHash, randomUUID } from 'node:crypto';
import type { Context } from 'aws-lambda';
import { clock } from '../../../shared/core/clock.ts';
import { IdempotencyConflict, PlatformError } from '../../../shared/core/errors.ts';
import { log } from '../../../shared/core/logger.ts';
import { failedCondition } from '../../../shared/store/client.ts';
import type { UploadedFile } from '../../../shared/schemas/uploaded-file.ts';
import { createJob, deleteJob, releaseJobLease, takeJobLease } from '../../../shared/store/job-writes.ts';
import type { Job } from '../../../shared/store/jobs.ts';
import type { User } from '../../../shared/store/users.ts';
import { deleteStagedUpload, stageUpload, stagedUploadKey } from '../../../shared/storage/staging.ts';
import { JobRun } from '../jobs/job-run.ts';
import type { TypedJobKind } from '../jobs/job-kind.ts';
import { isFinal, jobErrorOf } from '../jobs/job-errors.ts';

/**
 * Operations 7 and 8 with the CSV in the request's body (social-upload-in-request.ts and
 * professional-upload-in-request.ts, a module each, so that neither function's bundle holds the other
 * platform's job): the same audience job the worker runs for a
 * direct upload, run by the request itself on the bytes it already holds (docs/architecture.md, "One
 * audience engine"). One record and one lease: the job's. The file is staged in S3 as every uploaded
 * CSV is, before it is processed (docs/decisions.md), but never read back: the run reads the bytes in
 * memory. A retry with the same Idempotency-Key finds the same job (its id comes from the key) and
 * goes on from its checkpoint; a run that ends, whichever way, leaves neither the job nor the contacts.
 */
export interface InRequest {
  tenantId: string;
  user: User;
  context: Context;
  idempotencyKey: string | undefined;
}

/** The same key resumes the same job; without a key every request is its own. */
function jobIdFor(operation: string, tenantId: string, idempotencyKey: string | undefined): string {
  if (!idempotencyKey) return `job_${randomUUID().replaceAll('-', '')}`;
  return `job_${createHash('sha256').update(`${operation}\n${tenantId}\n${idempotencyKey}`).digest('hex').slice(0, 32)}`;
}

/** `kind`: the job's kind and its run, passed in so that each function's bundle holds only its platform's */
export async function runInRequest<Request, Checkpoint, Result>(
  request: InRequest,
  operation: string,
  file: UploadedFile,
  kind: { of: TypedJobKind<Request, Checkpoint>; run: (jobRun: JobRun, job: Job<Request, Checkpoint>, user: User) => Promise<Result> },
  jobFor: (jobId: string, objectKey: string) => Job<Request, Checkpoint>,
): Promise<Result> {
  const { tenantId, user } = request;
  const jobId = jobIdFor(operation, tenantId, request.idempotencyKey);
  const objectKey = stagedUploadKey(tenantId, user.userId, jobId);
  await stageUpload(objectKey, file.content);
  const owner = randomUUID();
  await createJob(jobFor(jobId, objectKey), undefined).catch((error: Error) => {
    if (failedCondition(error) === undefined) throw error; // a retry of the same key: its job goes on
  });
  const stored = await takeJobLease(tenantId, jobId, owner);
  // another live run of the same key holds it: its contacts stay until it ends
  if (!stored) throw new IdempotencyConflict('A request with this Idempotency-Key is still being processed; retry in a few seconds.');
  const job = kind.of.read(stored);
  if (job.progress.batchesSent > 0) log().info('resuming audience upload', { batchesSent: job.progress.batchesSent });

  const jobRun = new JobRun(job, owner, request.context, kind.of.platformOf(job), { source: file.content });
  try {
    job.status = 'running';
    await jobRun.save();
    const result = await kind.run(jobRun, job, user);
    await jobRun.end();
    await deleteJob(tenantId, jobId, owner);
    return result;
  } catch (error) {
    await jobRun.end();
    // a refusal ends the job; anything else leaves its checkpoint for a retry with the same key
    if (isFinal(error)) await deleteJob(tenantId, jobId, owner);
    else await releaseJobLease(tenantId, jobId, owner, jobErrorOf(error));
    if (error instanceof PlatformError && 'rows_landed' in error.extra) error.message += ' Retry the same request with the same Idempotency-Key to resume.';
    throw error;
  } finally {
    // whatever happened, the contacts are not kept: a retry sends the file again
    await deleteStagedUpload(objectKey);
  }
}

export function newJob<Request, Checkpoint>(
  jobId: string,
  request: InRequest,
  file: UploadedFile,
  type: Job['type'],
  work: Pick<Job<Request, Checkpoint>, 'request' | 'checkpoint'>,
): Job<Request, Checkpoint> {
  const now = clock.date().toISOString();
  return {
    jobId,
    tenantId: request.tenantId,
    userId: request.user.userId,
    type,
    status: 'running',
    progress: { bytesRead: 0, totalBytes: file.content.length, rowsRead: 0, rowsSent: 0, batchesSent: 0 },
    createdAt: now,
    updatedAt: now,
    runsInRequest: true,
    ...work,
  };
}
