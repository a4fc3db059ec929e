import { createHash, randomUUID } from 'node:crypto';
import type { Context } from 'aws-lambda';
import type * as z from 'zod';
import { type Answer, unchanged } from '../../../shared/core/audit.ts';
import { clock } from '../../../shared/core/clock.ts';
import { IdempotencyConflict } from '../../../shared/core/errors.ts';
import { queueJobRun } from '../../../shared/jobs/job-queue.ts';
import { ruleUndoCheckpointSchema, ruleUndoRequestSchema } from '../../../shared/schemas/rule-undo.ts';
import { createJob, deleteJob, forgetFailedJob, releaseJobLease, takeJobLease } from '../../../shared/store/job-writes.ts';
import { failedCondition } from '../../../shared/store/client.ts';
import { findJob, type Job } from '../../../shared/store/jobs.ts';
import { findRunUndo, type RunUndo } from '../../../shared/store/rule-undos.ts';
import type { User } from '../../../shared/store/users.ts';
import { jobErrorOf } from '../jobs/job-errors.ts';
import { defineJobKind } from '../jobs/job-kind.ts';
import { JobRun, Pause } from '../jobs/job-run.ts';
import { finishUndo, runChanges, setBackOne } from './rule-undo.ts';

/**
 * The undo of a rule run as a job (docs/rules.md, "Undo"): the changes of the run set back one by one,
 * newest first, each saved in the checkpoint as it is done. The request runs it while its own time
 * lasts and answers the undo when it ends there; a run that changed more than that hands over to the
 * queue, and the request answers the job to follow (`status: "running"`). Each set-back is an
 * exactly-once step (rule-undo.ts), so a run that stops anywhere, and starts again, writes each once.
 */
type UndoRequest = z.infer<typeof ruleUndoRequestSchema>;
type UndoJob = Job<UndoRequest, z.infer<typeof ruleUndoCheckpointSchema>>;

/** What undo_rule_run answers: the undo, or the job that goes on with it. */
export type UndoAnswer = RunUndo | { runId: string; status: 'running'; jobId: string; actions: RunUndo['actions'] };

export const ruleUndoJob = defineJobKind({
  type: 'rule_undo',
  request: ruleUndoRequestSchema,
  checkpoint: ruleUndoCheckpointSchema,
  platformOf: (request) => request.platform,
  run: runUndo,
  endEvents: { succeeded: 'rule_undo.succeeded', failed: 'rule_undo.failed' },
  endAudit: (job) => ({
    action: 'rule_undo.finished',
    target: { type: 'rule_undo_job', id: job.jobId },
    platform: job.request.platform,
    changes: { setBack: { to: job.checkpoint.actions.filter((action) => action.outcome === 'applied').length } },
  }),
});

/** Every change not set back yet, from the checkpoint on; then the undo stored. */
async function runUndo(run: JobRun, job: UndoJob, user: User): Promise<RunUndo> {
  const { request, checkpoint } = job;
  const changes = await runChanges(job.tenantId, user.userId, request);
  for (const change of changes.slice(checkpoint.actions.length)) {
    run.checkTime();
    checkpoint.actions.push(await setBackOne(job.tenantId, user, request, run.context, change));
    await run.save();
  }
  return finishUndo(job.tenantId, request.runId, checkpoint.actions);
}

/** How long a request waits for another request's run of the same undo to end (real time: it waits on that request). */
const CONCURRENT_UNDO_WAIT_MS = 5_000;

/** One job per run's undo, whoever asks and however often. */
const jobIdOf = (tenantId: string, runId: string) => `job_${createHash('sha256').update(`rule_undo\n${tenantId}\n${runId}`).digest('hex').slice(0, 32)}`;

/**
 * The undo run by its request: the job stored (or found, when an earlier request handed it over), run
 * while the request's time lasts, then forgotten with its answer; or, when the time is over first,
 * handed to the queue and answered as the job to follow.
 */
export async function undoInRequest(call: { tenantId: string; user: User; context: Context }, request: UndoRequest): Promise<Answer<UndoAnswer>> {
  const { tenantId, user, context } = call;
  const jobId = jobIdOf(tenantId, request.runId);
  const now = clock.date().toISOString();
  const fresh: UndoJob = {
    jobId,
    tenantId,
    userId: user.userId,
    type: 'rule_undo',
    status: 'running',
    progress: { bytesRead: 0, totalBytes: 0, rowsRead: 0, rowsSent: 0, batchesSent: 0 },
    createdAt: now,
    updatedAt: now,
    request,
    checkpoint: { actions: [] },
  };
  // a job that failed on the queue (a refused grant, an outage) starts again: its set-backs done are each once, answered as they were
  const earlier = await findJob(tenantId, jobId);
  if (earlier?.status === 'failed') await forgetFailedJob(tenantId, jobId);
  await createJob(fresh, undefined).catch((error: Error) => {
    if (failedCondition(error) === undefined) throw error; // an earlier request handed it over: it goes on from its checkpoint
  });
  const owner = randomUUID();
  const stored = await takeJobLease(tenantId, jobId, owner);
  if (!stored) {
    // a run of it holds it: another request's ends within its own time (its undo is then the answer), the queue's is the job to follow
    const waitUntil = performance.now() + CONCURRENT_UNDO_WAIT_MS;
    while (performance.now() < waitUntil) {
      const undo = await findRunUndo(tenantId, request.runId);
      if (undo) return unchanged(undo);
      await new Promise((resolve) => setTimeout(resolve, 100)); // real time: it waits on another request
    }
    const held = ruleUndoJob.read((await findJob(tenantId, jobId)) ?? fresh);
    if (held.status === 'succeeded' && held.result) return unchanged(held.result as unknown as RunUndo);
    if (held.status !== 'queued' && held.status !== 'running') throw new IdempotencyConflict('The undo of this run is changing hands; ask again in a moment.');
    return unchanged({ runId: request.runId, status: 'running', jobId, actions: held.checkpoint.actions });
  }
  const job = ruleUndoJob.read(stored);
  const run = new JobRun(job, owner, context, request.platform);
  try {
    const undo = await runUndo(run, job, user);
    await run.end();
    await deleteJob(tenantId, jobId, owner);
    return undo;
  } catch (error) {
    await run.end();
    if (!(error instanceof Pause)) {
      // a refusal or an outage: the set-backs done are kept (each once), and the same request again goes on from them
      await releaseJobLease(tenantId, jobId, owner, jobErrorOf(error));
      throw error;
    }
    // the request's time is over: the queue goes on with the rest
    await releaseJobLease(tenantId, jobId, owner);
    await queueJobRun({ tenantId, jobId });
    return { runId: request.runId, status: 'running', jobId, actions: job.checkpoint.actions };
  }
}
