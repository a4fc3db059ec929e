import type * as z from 'zod';
import type { AuditDraft } from '../../../shared/core/audit.ts';
import type { Platform } from '../../../shared/core/errors.ts';
import type { WebhookEventType } from '../../../shared/schemas/tenant-values.ts';
import type { Job, JobError, JobType, LaunchOrphan } from '../../../shared/store/jobs.ts';
import type { User } from '../../../shared/store/users.ts';
import type { JobRun } from './job-run.ts';

/**
 * A kind of job (docs/architecture.md, "The job engine"): everything the engine knows of it, in one
 * module. The engine (run-job.ts) holds the lease, saves, pauses, retries, ends and announces; a kind
 * says what its request and checkpoint are (zod: a stored record is read through them, never cast),
 * what a run does, its end events and audit event, and what it leaves when its run cannot go on. What
 * get_job shows of each kind is job-views.ts's (a module of its own, so get_job's bundle holds no run).
 */
export interface JobKindSpec<Request, Checkpoint> {
  type: JobType;
  request: z.ZodType<Request>;
  checkpoint: z.ZodType<Checkpoint>;
  /** the platform it works on: every save checks the user still holds its connection */
  platformOf(request: Request): Platform;
  /** one run, from the checkpoint on: its result, or a throw (Pause, JobEnded, a platform's refusal) */
  run(run: JobRun, job: Job<Request, Checkpoint>, user: User): Promise<object>;
  /** the webhook of its end, by outcome */
  endEvents: { succeeded: WebhookEventType; failed: WebhookEventType };
  /** the audit event of its end, in the name of whoever started it */
  endAudit(job: Job<Request, Checkpoint>): Omit<AuditDraft, 'tenantId' | 'userId' | 'outcome' | 'error'>;
  /** after it ended: what it held is let go (a staged file, a launch's name) */
  afterEnd?(job: Job<Request, Checkpoint>): Promise<void>;
  /** what it leaves when it ends without a run to tidy up (its grant is gone, or its undo was given up) */
  leftovers?(job: Job<Request, Checkpoint>): { rolledBack: boolean; orphans: LaunchOrphan[] };
  /** the dead-letter path: undo what it made; throws JobEnded when the undo ran to its end */
  abandon?(run: JobRun, job: Job<Request, Checkpoint>, user: User, failure: JobError): Promise<void>;
}

/** A job kind as the engine holds it, for any stored job of its type. */
export interface JobKind {
  type: JobType;
  platformOf(job: Job): Platform;
  run(run: JobRun, user: User): Promise<object>;
  endEvents: { succeeded: WebhookEventType; failed: WebhookEventType };
  endAudit(job: Job): Omit<AuditDraft, 'tenantId' | 'userId' | 'outcome' | 'error'>;
  afterEnd(job: Job): Promise<void>;
  leftovers(job: Job): { rolledBack: boolean; orphans: LaunchOrphan[] } | undefined;
  abandon: ((run: JobRun, user: User, failure: JobError) => Promise<void>) | undefined;
}

/** A kind that can also read one of its stored jobs, typed (for the code that starts or answers it). */
export interface TypedJobKind<Request, Checkpoint> extends JobKind {
  read(job: Job): Job<Request, Checkpoint>;
}

/**
 * The kind, over any stored job of its type: the job's request and checkpoint are read through the
 * kind's schemas (a record that does not fit fails loudly, never half-typed) into the same job object
 * the run saves.
 */
export function defineJobKind<Request, Checkpoint>(spec: JobKindSpec<Request, Checkpoint>): TypedJobKind<Request, Checkpoint> {
  const read = (job: Job): Job<Request, Checkpoint> =>
    Object.assign(job, { request: spec.request.parse(job.request), checkpoint: spec.checkpoint.parse(job.checkpoint) });
  const { abandon, leftovers, afterEnd } = spec;
  return {
    read,
    type: spec.type,
    platformOf: (job) => spec.platformOf(read(job).request),
    run: (run, user) => spec.run(run, read(run.job), user),
    endEvents: spec.endEvents,
    endAudit: (job) => spec.endAudit(read(job)),
    afterEnd: async (job) => afterEnd?.(read(job)),
    leftovers: (job) => leftovers?.(read(job)),
    abandon: abandon && ((run, user, failure) => abandon(run, read(run.job), user, failure)),
  };
}
