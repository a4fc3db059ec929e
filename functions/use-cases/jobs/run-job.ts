import { randomUUID } from 'node:crypto';
import type { Context } from 'aws-lambda';
import { systemActor, withAuditScope } from '../../../shared/core/audit.ts';
import { clock } from '../../../shared/core/clock.ts';
import { PlatformError, PlatformNotConnected, PlatformRateLimited, UserNotFound } from '../../../shared/core/errors.ts';
import { log } from '../../../shared/core/logger.ts';
import { jobQueue } from '../../../shared/core/queues.ts';
import { redactDeep } from '../../../shared/core/redaction.ts';
import { queueJobRun, type JobRef } from '../../../shared/jobs/job-queue.ts';
import { recordAuditEvent } from '../../../shared/store/audit-event-writes.ts';
import { finishJob, noteResumeAt, releaseJobLease, takeJobLease } from '../../../shared/store/job-writes.ts';
import { findJob, type Job, type JobError } from '../../../shared/store/jobs.ts';
import { findUser } from '../../../shared/store/users.ts';
import { emitWebhookEvent } from '../../../shared/webhooks/emit.ts';
import { notePlatformRefusal } from '../../../shared/webhooks/reconnect-required.ts';
import { isFinal, jobErrorOf } from './job-errors.ts';
import { JOB_KINDS } from './job-kinds.ts';
import { viewOf } from './job-views.ts';
import { JobEnded, JobRun, LeaseLost, Pause } from './job-run.ts';

/**
 * The job engine (docs/architecture.md, "The job engine"): one message of the job queue is the job's
 * run until it ends, pauses (its time is short, or the platform asked to wait) or fails in a way worth
 * retrying. It knows no kind of job: what a run does, shows and leaves is the kind's (job-kinds.ts).
 * A failure that another attempt cannot mend (a bad file, a refused list, an expired grant) ends the
 * job `failed` at once; any other goes back to the queue, which retries it and, after its last
 * attempt, hands it to the dead-letter path (endAbandonedJob).
 */
export async function runJob(ref: JobRef, context: Context): Promise<void> {
  const owner = randomUUID();
  const job = await takeJobLease(ref.tenantId, ref.jobId, owner);
  if (!job) return log().info('job not run: finished, unknown, or held by a live run');
  if (await stillParked(job, owner)) return;
  const kind = JOB_KINDS[job.type];
  const run = new JobRun(job, owner, context, kind.platformOf(job));
  try {
    const user = await findUser(job.tenantId, job.userId);
    if (!user) throw new UserNotFound();
    try {
      job.status = 'running';
      await run.save();
      const result = await kind.run(run, user);
      await end(job, owner, { status: 'succeeded', result: { ...result } });
    } catch (error) {
      await notePlatformRefusal(user, error);
      throw error;
    }
  } catch (error) {
    if (error instanceof LeaseLost) return log().warn('job taken over by another run');
    if (error instanceof JobEnded) return end(job, owner, { status: 'failed', error: jobErrorOf(error.failure), ...leftOf(error) });
    // disconnected before its run could open a session: what earlier runs made stays, listed
    if (error instanceof PlatformNotConnected) return end(job, owner, { status: 'failed', error: jobErrorOf(error), ...kind.leftovers(job) });
    if (error instanceof Pause || error instanceof PlatformRateLimited || (error instanceof PlatformError && !isFinal(error) && run.sliceIsOver())) {
      // the step in flight, if any, is done again (read back first) by the continuation
      const delaySeconds = error instanceof Pause ? error.delaySeconds : error instanceof PlatformRateLimited ? error.retryAfterSeconds : 0;
      await run.end();
      if (delaySeconds > 0) await noteResumeAt(ref.tenantId, ref.jobId, owner, clock.now() + delaySeconds * 1000);
      // the lease goes before the message, or the continuation could find it still held and stop
      // (a crash in between leaves the job to the sweep)
      await releaseJobLease(ref.tenantId, ref.jobId, owner);
      await queueJobRun(ref, delaySeconds);
      return log().info('job continues in its next message', { type: job.type, delaySeconds });
    }
    if (isFinal(error)) return end(job, owner, { status: 'failed', error: jobErrorOf(error) });
    await run.end();
    await releaseJobLease(ref.tenantId, ref.jobId, owner, jobErrorOf(error));
    throw error;
  } finally {
    await run.end();
  }
}

/**
 * A job parked until a time (a platform's daily quota: Google's next day) is not run before it, whoever
 * queued it: a queue delays a message 15 minutes at most, and a restart or a sweep queues it at once.
 * Its message is queued again for the rest of the wait (at most the queue's longest delay at a time).
 */
async function stillParked(job: Job, owner: string): Promise<boolean> {
  const waitMs = (job.resumeAt ?? 0) - clock.now();
  if (waitMs <= 0) return false;
  await releaseJobLease(job.tenantId, job.jobId, owner);
  await queueJobRun({ tenantId: job.tenantId, jobId: job.jobId }, Math.ceil(waitMs / 1000));
  log().info('job still parked; queued again for the rest of its wait', { type: job.type, waitSeconds: Math.ceil(waitMs / 1000) });
  return true;
}

const leftOf = ({ rolledBack, orphans }: JobEnded) => (rolledBack === undefined ? {} : { rolledBack, orphans: orphans ?? [] });

type Outcome = Pick<Job, 'status' | 'result' | 'error' | 'rolledBack' | 'orphans'>;

async function end(job: Job, owner: string | undefined, outcome: Outcome): Promise<void> {
  // a platform's words in the error (its message, title, user message) never carry a credential into get_job or a webhook
  Object.assign(job, outcome.error ? { ...outcome, error: redactDeep(outcome.error) } : outcome);
  if (!(await finishJob(job, owner))) return;
  log().info('job ended', { type: job.type, status: job.status, bytesRead: job.progress.bytesRead, batchesSent: job.progress.batchesSent });
  const kind = JOB_KINDS[job.type];
  await kind.afterEnd(job);
  await recordJobEnd(job);
  const { jobId, userId, type, status, result, error, rolledBack, orphans } = viewOf(job);
  await emitWebhookEvent(job.tenantId, kind.endEvents[job.status === 'succeeded' ? 'succeeded' : 'failed'], {
    jobId,
    userId,
    type,
    status,
    ...(result ? { result } : {}),
    ...(error ? { error } : {}),
    ...(rolledBack !== undefined ? { rolledBack, orphans } : {}),
  });
}

/**
 * The dead-letter path: the queue gave up on the job's message; the job ends `failed` with its last
 * reason. A kind that undoes (a launch) undoes first, as a refusal would.
 */
export async function endAbandonedJob(ref: JobRef, context: Context): Promise<void> {
  const found = await findJob(ref.tenantId, ref.jobId);
  if (!found) return;
  const kind = JOB_KINDS[found.type];
  const reason = found.lastError ?? { code: 'INTERNAL', message: 'The job’s runs kept failing.' };
  const failure = { code: reason.code, message: `${reason.message} The job was given up after ${jobQueue.maxReceiveCount} attempts.` };
  if (kind.abandon && (await undoAbandoned(ref, failure, context))) return;
  // read again: an undo that stopped part-way has marked what it did remove
  const job = kind.abandon ? ((await findJob(ref.tenantId, ref.jobId)) ?? found) : found;
  await end(job, undefined, { status: 'failed', error: failure, ...kind.leftovers(job) });
}

/** A given-up job's undo: true when it ran to its end (everything undone, or what is left named). */
async function undoAbandoned(ref: JobRef, failure: JobError, context: Context): Promise<boolean> {
  const owner = randomUUID();
  const job = await takeJobLease(ref.tenantId, ref.jobId, owner);
  if (!job) return false;
  const kind = JOB_KINDS[job.type];
  const run = new JobRun(job, owner, context, kind.platformOf(job));
  try {
    const user = await findUser(job.tenantId, job.userId);
    if (!user || !kind.abandon) return false;
    await kind.abandon(run, user, failure);
    return false;
  } catch (error) {
    if (!(error instanceof JobEnded)) {
      log().warn('a given-up job could not be undone; what it made is listed', { reason: (error as Error).name });
      return false;
    }
    await run.end();
    await end(job, owner, { status: 'failed', error: jobErrorOf(error.failure), ...leftOf(error) });
    return true;
  } finally {
    await run.end();
    await releaseJobLease(ref.tenantId, ref.jobId, owner).catch(() => undefined);
  }
}

/**
 * The audit event of the platform write the job made (the kind's), in the name of whoever started the
 * job (docs/decisions.md, "Audit log"). A failure to store it is logged: the job's end and its webhook
 * do not wait on it.
 */
async function recordJobEnd(job: Job): Promise<void> {
  const scope = {
    actor: job.startedBy?.actor ?? systemActor('run-jobs'),
    ...(job.startedBy?.requestId ? { requestId: job.startedBy.requestId } : {}),
  };
  const outcome = job.status === 'failed' ? { outcome: 'failed' as const, error: { code: job.error?.code ?? 'INTERNAL' } } : {};
  const draft = { tenantId: job.tenantId, userId: job.userId, ...JOB_KINDS[job.type].endAudit(job), ...outcome };
  await withAuditScope(scope, () => recordAuditEvent(draft)).catch((failure: unknown) =>
    log().error('audit event of a job not stored', { jobId: job.jobId, reason: (failure as Error).name }),
  );
}
