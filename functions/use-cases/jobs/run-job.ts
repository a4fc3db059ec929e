import { randomUUID } from 'node:crypto';
import type { Context } from 'aws-lambda';
import { type AuditDraft, systemActor, withAuditScope } from '../../../shared/core/audit.ts';
import { clock } from '../../../shared/core/clock.ts';
import { redactDeep } from '../../../shared/core/redaction.ts';
import { PlatformError, PlatformNotConnected, PlatformRateLimited, ServiceError, UserNotFound } from '../../../shared/core/errors.ts';
import { log } from '../../../shared/core/logger.ts';
import { queueJobRun, type JobRef } from '../../../shared/jobs/job-queue.ts';
import { jobQueue } from '../../../shared/core/queues.ts';
import { finishJob, noteResumeAt, releaseJobLease, takeJobLease } from '../../../shared/store/job-writes.ts';
import {
  findJob,
  viewOf,
  type Job,
  type JobError,
  type LaunchCheckpoint,
  type LaunchJobRequest,
  type MediaCheckpoint,
  type MediaJobRequest,
  type ProfessionalCheckpoint,
  type ProfessionalJobRequest,
  type SocialJobRequest,
} from '../../../shared/store/jobs.ts';
import { recordAuditEvent } from '../../../shared/store/audit-event-writes.ts';
import { findUser } from '../../../shared/store/users.ts';
import { deleteStagedUpload } from '../../../shared/storage/staging.ts';
import { emitWebhookEvent } from '../../../shared/webhooks/emit.ts';
import { notePlatformRefusal } from '../../../shared/webhooks/reconnect-required.ts';
import { JobRun, LeaseLost, Pause } from './job-run.ts';
import { runProfessionalAudienceJob } from '../audiences/professional-audience-job.ts';
import { runSocialAudienceJob } from '../audiences/social-audience-job.ts';
import { runAdMediaJob } from '../media/video-job.ts';
import { LaunchEnded, launchLeftovers } from '../launch/launch-engine.ts';
import { launchNameOf } from '../launch/launch-request.ts';
import { releaseLaunchName } from '../../../shared/store/launch-claims.ts';
import { runProfessionalLaunchJob } from '../launch/professional-launch-script.ts';
import { runSocialLaunchJob } from '../launch/social-launch-script.ts';
import type { User } from '../../../shared/store/users.ts';

/**
 * One message of the job queue: the job's run until it ends, pauses (its time is short, or
 * the platform asked to wait) or fails in a way worth retrying. A failure that another attempt cannot
 * mend (a bad file, a refused list, an expired grant) ends the job `failed` at once; any other
 * failure goes back to the queue, which retries it and, after its last attempt, hands it to the
 * dead-letter path (endAbandonedJob).
 */
export async function runJob(ref: JobRef, context: Context): Promise<void> {
  const owner = randomUUID();
  const job = await takeJobLease(ref.tenantId, ref.jobId, owner);
  if (!job) return log().info('job not run: finished, unknown, or held by a live run');
  const run = new JobRun(job, owner, context);
  try {
    const user = await findUser(job.tenantId, job.userId);
    if (!user) throw new UserNotFound();
    try {
      job.status = 'running';
      await run.save();
      const result = await RUNNERS[job.type](run, user);
      await end(job, owner, { status: 'succeeded', result: { ...result } });
    } catch (error) {
      await notePlatformRefusal(user, error);
      throw error;
    }
  } catch (error) {
    if (error instanceof LeaseLost) return log().warn('job taken over by another run');
    if (error instanceof LaunchEnded)
      return end(job, owner, { status: 'failed', error: jobErrorOf(error.failure), rolledBack: error.rolledBack, orphans: error.orphans });
    if (error instanceof PlatformNotConnected && job.type === 'campaign_launch') {
      // disconnected before its run could open a session: what earlier runs made stays, listed
      const left = launchLeftovers(job.checkpoint as LaunchCheckpoint);
      return end(job, owner, { status: 'failed', error: jobErrorOf(error), rolledBack: left.length === 0, orphans: left });
    }
    if (error instanceof Pause || error instanceof PlatformRateLimited || (error instanceof PlatformError && !isFinal(error) && run.sliceIsOver())) {
      // the batch in flight, if any, is sent again (same number) by the continuation
      const delaySeconds = error instanceof Pause ? error.delaySeconds : error instanceof PlatformRateLimited ? error.retryAfterSeconds : 0;
      await run.end();
      if (delaySeconds > 0) await noteResumeAt(ref.tenantId, ref.jobId, owner, clock.now() + delaySeconds * 1000);
      // the lease goes before the message, or the continuation could find it still held and stop
      // (a crash in between leaves the job to the sweep)
      await releaseJobLease(ref.tenantId, ref.jobId, owner);
      await queueJobRun(ref, delaySeconds);
      return log().info('job continues in its next message', { delaySeconds, batchesSent: job.progress.batchesSent });
    }
    if (isFinal(error)) return end(job, owner, { status: 'failed', error: jobErrorOf(error) });
    await run.end();
    await releaseJobLease(ref.tenantId, ref.jobId, owner, jobErrorOf(error));
    throw error;
  } finally {
    await run.end();
  }
}

/** What runs each type of job. */
const RUNNERS: Record<Job['type'], (run: JobRun, user: User) => Promise<object>> = {
  social_audience: runSocialAudienceJob,
  professional_audience: runProfessionalAudienceJob,
  ad_media: runAdMediaJob,
  campaign_launch: (run, user) => ((run.job.request as LaunchJobRequest).platform === 'social' ? runSocialLaunchJob : runProfessionalLaunchJob)(run, user),
};

/** The webhook of a job's end, by type and outcome. */
const END_EVENTS = {
  social_audience: ['audience_job.succeeded', 'audience_job.failed'],
  professional_audience: ['audience_job.succeeded', 'audience_job.failed'],
  ad_media: ['ad_media.ready', 'ad_media.failed'],
  campaign_launch: ['campaign_launch.succeeded', 'campaign_launch.failed'],
} as const;

/** A client's or a platform's refusal: the same request would fail the same way. */
export function isFinal(error: unknown): boolean {
  return (
    error instanceof ServiceError &&
    (error.status < 500 || error.code === 'PLATFORM_REJECTED' || error.code === 'PLATFORM_AUTH_EXPIRED') &&
    error.status !== 429
  );
}

export function jobErrorOf(error: unknown): JobError {
  if (error instanceof ServiceError) {
    const platform = error.extra.platformDetail as JobError['platform'];
    const minimum = error.extra.minimum as JobError['minimum'];
    return redactDeep({ code: error.code, message: error.message, ...(platform ? { platform } : {}), ...(minimum ? { minimum } : {}) });
  }
  return { code: 'INTERNAL', message: 'The job failed unexpectedly.' };
}

async function end(job: Job, owner: string | undefined, outcome: Pick<Job, 'status' | 'result' | 'error' | 'rolledBack' | 'orphans'>): Promise<void> {
  // a platform's words in the error (its message, title, user message) never carry a credential into get_job or a webhook
  Object.assign(job, outcome.error ? { ...outcome, error: redactDeep(outcome.error) } : outcome);
  if (!(await finishJob(job, owner))) return;
  log().info('job ended', { type: job.type, status: job.status, bytesRead: job.progress.bytesRead, batchesSent: job.progress.batchesSent });
  // the launch's name is free again (a crash before this leaves it to the next launch of the name, which finds this job ended)
  if (job.type === 'campaign_launch') await releaseLaunchName(launchNameOf(job.request as LaunchJobRequest), job.jobId).catch(() => undefined);
  // the contacts are not kept once the audience has them; after a failure the file stays (the bucket's lifecycle ends it) so the client can
  // start again. A media file stays too: it may still go to another platform or ad account
  if (job.status === 'succeeded' && job.type !== 'ad_media' && 'objectKey' in job.request) await deleteStagedUpload(job.request.objectKey);
  await recordJobEnd(job);
  const { jobId, userId, type, status, result, error, rolledBack, orphans } = viewOf(job);
  await emitWebhookEvent(job.tenantId, END_EVENTS[job.type][job.status === 'succeeded' ? 0 : 1], {
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
 * reason. A launch is undone first (all or nothing), as a refusal would undo it.
 */
export async function endAbandonedJob(ref: JobRef, context: Context): Promise<void> {
  const found = await findJob(ref.tenantId, ref.jobId);
  if (!found) return;
  const reason = found.lastError ?? { code: 'INTERNAL', message: 'The job’s runs kept failing.' };
  const given = `${reason.message} The job was given up after ${jobQueue.maxReceiveCount} attempts.`;
  if (found.type === 'campaign_launch' && (await undoAbandonedLaunch(ref, { code: reason.code, message: given }, context))) return;
  // read again: an undo that stopped part-way has marked what it did remove
  const job = found.type === 'campaign_launch' ? ((await findJob(ref.tenantId, ref.jobId)) ?? found) : found;
  // a launch that could not be undone either keeps what it made (social: PAUSED from its creation;
  // professional: drafts), listed as orphans
  const left = job.type === 'campaign_launch' ? launchLeftovers(job.checkpoint as LaunchCheckpoint) : [];
  await end(job, undefined, {
    status: 'failed',
    error: { code: reason.code, message: given },
    ...(job.type === 'campaign_launch' ? { rolledBack: left.length === 0, orphans: left } : {}),
  });
}

/** A given-up launch's rollback: true when it ran to its end (everything undone, or orphans named). */
async function undoAbandonedLaunch(ref: JobRef, failure: JobError, context: Context): Promise<boolean> {
  const owner = randomUUID();
  const job = await takeJobLease(ref.tenantId, ref.jobId, owner);
  if (!job) return false;
  const run = new JobRun(job, owner, context);
  try {
    const user = await findUser(job.tenantId, job.userId);
    if (!user) return false;
    (job.checkpoint as LaunchCheckpoint).failure ??= failure;
    await run.save();
    await RUNNERS.campaign_launch(run, user); // with a failure stored, the run undoes and ends
    return false;
  } catch (error) {
    if (!(error instanceof LaunchEnded)) {
      log().warn('a given-up launch could not be undone; what it made is listed', { reason: (error as Error).name });
      return false;
    }
    await run.end();
    await end(job, owner, { status: 'failed', error: jobErrorOf(error.failure), rolledBack: error.rolledBack, orphans: error.orphans });
    return true;
  } finally {
    await run.end();
    await releaseJobLease(ref.tenantId, ref.jobId, owner).catch(() => undefined);
  }
}

/**
 * The audit event of the platform write the job made: the audience created or its members changed,
 * in the name of whoever started the job (docs/decisions.md, "Audit log"). A failure to store it is
 * logged: the job's end and its webhook do not wait on it.
 */
async function recordJobEnd(job: Job): Promise<void> {
  const scope = {
    actor: job.startedBy?.actor ?? systemActor('run-jobs'),
    ...(job.startedBy?.requestId ? { requestId: job.startedBy.requestId } : {}),
  };
  await withAuditScope(scope, () => recordAuditEvent(endEventOf(job))).catch((failure: unknown) =>
    log().error('audit event of a job not stored', { jobId: job.jobId, reason: (failure as Error).name }),
  );
}

function endEventOf(job: Job): AuditDraft {
  const outcome = job.status === 'failed' ? { outcome: 'failed' as const, error: { code: job.error?.code ?? 'INTERNAL' } } : {};
  if (job.type === 'campaign_launch') {
    const request = job.request as LaunchJobRequest;
    const campaign = (job.checkpoint as LaunchCheckpoint).receipts.find((receipt) => receipt.step === 'campaign');
    const result = job.result as { status?: string; ads?: unknown[] } | undefined;
    return {
      tenantId: job.tenantId,
      action: job.status === 'succeeded' ? 'campaign.launched' : 'campaign.launch_failed',
      target: { type: 'campaign', id: campaign?.platformId ?? job.jobId },
      userId: job.userId,
      platform: request.platform,
      changes: {
        job: { to: job.jobId },
        name: { to: request.campaignName },
        ...(result
          ? { status: { to: result.status }, ads: { to: result.ads?.length } }
          : { rolledBack: { to: job.rolledBack }, orphans: { to: job.orphans?.length ?? 0 } }),
      },
      ...outcome,
    };
  }
  if (job.type === 'ad_media') {
    const request = job.request as MediaJobRequest;
    return {
      tenantId: job.tenantId,
      action: 'ad_media.uploaded',
      target: { type: 'media', id: (job.checkpoint as MediaCheckpoint).videoId ?? job.jobId },
      userId: job.userId,
      platform: request.platform,
      changes: { job: { to: job.jobId }, bytes: { to: job.progress.bytesRead } },
      ...outcome,
    };
  }
  const social = job.type === 'social_audience';
  const request = job.request as SocialJobRequest | ProfessionalJobRequest;
  const created = !social || (request as SocialJobRequest).mode === 'create';
  const audienceId = social
    ? (request as SocialJobRequest).audienceId
    : ((job.result as { audience?: { csvFileId?: string } } | undefined)?.audience?.csvFileId ?? (job.checkpoint as ProfessionalCheckpoint).inputFile);
  return {
    tenantId: job.tenantId,
    action: created ? 'audience.created' : 'audience.updated',
    target: { type: 'audience', id: audienceId ?? job.jobId },
    userId: job.userId,
    platform: social ? 'social' : 'professional',
    changes: { job: { to: job.jobId }, rows: { to: job.progress.rowsSent } },
    ...outcome,
  };
}
