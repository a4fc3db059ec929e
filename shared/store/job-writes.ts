import { DeleteCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Platform } from '../core/errors.ts';
import { clock } from '../core/clock.ts';
import { config } from '../core/config.ts';
import type { AuditToStore } from '../core/audit.ts';
import { sendAudited } from './audit-event-writes.ts';
import { documentStore, failedCondition, failedTransactionConditions, mainTableName, writeIfConditionHolds } from './client.ts';
import { UNFINISHED, type Job, type JobError } from './jobs.ts';
import { keys } from './keys.ts';

/**
 * The writes of jobs. A run of the worker holds the job's lease while it works (renewed by
 * its heartbeat); every save is conditional on holding it, so two runs never interleave, and a
 * crashed run's lease lapses within JOB_LEASE_MS.
 */
const KEEP_SECONDS = 30 * 24 * 60 * 60;
const names = { '#status': 'status' };

const stored = (job: Job) => ({ ...job, ...keys.job(job.tenantId, job.jobId), expiresAt: Math.floor(clock.now() / 1000) + KEEP_SECONDS });

/** Stores a new job, with the audit event of its start in the same transaction when there is one. */
export async function createJob(job: Job, audit: AuditToStore | undefined): Promise<void> {
  await sendAudited(new PutCommand({ TableName: mainTableName(), Item: stored(job), ConditionExpression: 'attribute_not_exists(pk)' }), audit);
}

/** The job with `owner`'s fresh lease, or undefined when it is finished, unknown or held by a live run. */
export async function takeJobLease(tenantId: string, jobId: string, owner: string): Promise<Job | undefined> {
  const now = clock.now();
  try {
    const { Attributes } = await documentStore().send(
      new UpdateCommand({
        TableName: mainTableName(),
        Key: keys.job(tenantId, jobId),
        UpdateExpression: 'SET leaseOwner = :owner, leaseUntil = :until',
        ConditionExpression:
          'attribute_exists(pk) AND #status IN (:queued, :running) AND (attribute_not_exists(leaseUntil) OR leaseUntil < :now OR leaseOwner = :owner)',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: { ':owner': owner, ':until': now + config().JOB_LEASE_MS, ':now': now, ...UNFINISHED },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return Attributes as Job;
  } catch (error) {
    if (failedCondition(error) !== undefined) return undefined;
    throw error;
  }
}

export type SaveOutcome = 'saved' | 'lease-lost' | 'disconnected';

/**
 * Saves the run's checkpoint and progress and renews its lease, in one transaction with a check that
 * the user still holds the job's platform connection: a disconnect stops the job at its next save,
 * which comes before each of its platform calls (docs/decisions.md, "A disconnect stops running jobs").
 */
export async function saveJobRun(job: Job, owner: string, platform: Platform): Promise<SaveOutcome> {
  job.updatedAt = clock.date().toISOString();
  job.leaseOwner = owner;
  job.leaseUntil = clock.now() + config().JOB_LEASE_MS;
  try {
    await documentStore().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: mainTableName(),
              Item: stored(job),
              ConditionExpression: 'leaseOwner = :owner',
              ExpressionAttributeValues: { ':owner': owner },
            },
          },
          {
            ConditionCheck: {
              TableName: mainTableName(),
              Key: keys.user(job.tenantId, job.userId),
              ConditionExpression: 'attribute_exists(connections.#platform)',
              ExpressionAttributeNames: { '#platform': platform },
            },
          },
        ],
      }),
    );
    return 'saved';
  } catch (error) {
    // which write's condition failed: the job's (another run holds it) or the user's (the connection is gone)
    const failed = failedTransactionConditions(error);
    if (failed?.includes(0)) return 'lease-lost';
    if (failed?.includes(1)) return 'disconnected';
    throw error;
  }
}

/** The run gives the job up (to its continuation, or after a failure the queue will retry, noted as `lastError`). */
export async function releaseJobLease(tenantId: string, jobId: string, owner: string, lastError?: JobError): Promise<void> {
  await writeIfConditionHolds(
    new UpdateCommand({
      TableName: mainTableName(),
      Key: keys.job(tenantId, jobId),
      UpdateExpression: lastError ? 'SET leaseUntil = :zero, lastError = :error' : 'SET leaseUntil = :zero',
      ConditionExpression: 'leaseOwner = :owner',
      ExpressionAttributeValues: { ':owner': owner, ':zero': 0, ...(lastError ? { ':error': lastError } : {}) },
    }),
  );
}

/** A delayed continuation was queued: the sweep leaves the job alone until then. */
export async function noteResumeAt(tenantId: string, jobId: string, owner: string, resumeAt: number): Promise<void> {
  await writeIfConditionHolds(
    new UpdateCommand({
      TableName: mainTableName(),
      Key: keys.job(tenantId, jobId),
      UpdateExpression: 'SET resumeAt = :at',
      ConditionExpression: 'leaseOwner = :owner',
      ExpressionAttributeValues: { ':owner': owner, ':at': resumeAt },
    }),
  );
}

/**
 * Ends the job, once: by the run holding its lease, or (no owner) by the dead-letter path whatever
 * holds it. Whether this call ended it (the caller then sends the webhook).
 */
export async function finishJob(job: Job, owner: string | undefined): Promise<boolean> {
  job.updatedAt = clock.date().toISOString();
  job.leaseUntil = 0;
  return writeIfConditionHolds(
    new PutCommand({
      TableName: mainTableName(),
      Item: stored(job),
      ConditionExpression: owner ? 'leaseOwner = :owner AND #status IN (:queued, :running)' : '#status IN (:queued, :running)',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: { ...(owner ? { ':owner': owner } : {}), ...UNFINISHED },
    }),
  );
}

/** At the local stack's start no run of it can be alive: the leases its last process held are let go. */
export async function releaseLeaseOfStoppedRun(tenantId: string, jobId: string): Promise<void> {
  await writeIfConditionHolds(
    new UpdateCommand({
      TableName: mainTableName(),
      Key: keys.job(tenantId, jobId),
      UpdateExpression: 'SET leaseUntil = :zero',
      ConditionExpression: '#status IN (:queued, :running)',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: { ':zero': 0, ...UNFINISHED },
    }),
  );
}

/** A failed job of a kind its caller may start again from nothing (an undo: its steps are each once), forgotten. */
export async function forgetFailedJob(tenantId: string, jobId: string): Promise<void> {
  await writeIfConditionHolds(
    new DeleteCommand({
      TableName: mainTableName(),
      Key: keys.job(tenantId, jobId),
      ConditionExpression: '#status = :failed',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':failed': 'failed' },
    }),
  );
}

/** A job run by its request is forgotten when it ends: its result is the request's answer (kept by idempotency). */
export async function deleteJob(tenantId: string, jobId: string, owner: string): Promise<void> {
  await writeIfConditionHolds(
    new DeleteCommand({
      TableName: mainTableName(),
      Key: keys.job(tenantId, jobId),
      ConditionExpression: 'leaseOwner = :owner',
      ExpressionAttributeValues: { ':owner': owner },
    }),
  );
}
