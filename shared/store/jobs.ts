import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { AuditActor } from '../core/audit.ts';
import type { PlatformDetail } from '../core/errors.ts';
import { documentStore, mainTableName } from './client.ts';
import { keys } from './keys.ts';

/**
 * Jobs (docs/architecture.md, "The job engine"): the one record of long-running work (a contact list on
 * its way to a platform, a video into an ad account, a whole launch). The item holds what the client
 * sees (status, progress, result or error), what a run needs to go on (the request and a checkpoint,
 * whose shapes each job kind declares) and the lease of the run that holds it. A contact list sent in
 * the request's body is sent by the request itself, through the same code (`runsInRequest`: never
 * queued or swept, never shown by get_job, gone when it ends).
 *   TENANT#<t>#JOB#<jobId> / JOB
 */
export type JobStatus = 'queued' | 'running' | 'succeeded' | 'failed';
export type JobType =
  | 'social_audience'
  | 'professional_audience'
  | 'searchads_audience'
  | 'ad_media'
  | 'campaign_launch'
  | 'leads_backfill'
  | 'rule_undo'
  | 'conversions'
  | 'report_export';

export interface JobProgress {
  bytesRead: number;
  totalBytes: number;
  rowsRead: number;
  rowsSent: number;
  batchesSent: number;
}

export interface JobError {
  code: string;
  message: string;
  /** a launch's refusal: what the platform said */
  platform?: PlatformDetail;
  /** BUDGET_TOO_LOW: the smallest daily budget, when the platform named it */
  minimum?: { amount: string; currency: string };
}

export type LaunchObjectType = 'campaign_group' | 'campaign' | 'adset' | 'creative' | 'ad';

/**
 * What a failed launch left in the account: an object it made and could not remove (paused), or one a
 * create whose answer was lost may have made and no read-back found (`id: null`, `possible: true`).
 */
export type LaunchOrphan = { type: LaunchObjectType; id: string } | { type: LaunchObjectType; id: null; name: string; possible: true };

/** A stored job; `Request` and `Checkpoint` are its kind's (unknown until the kind's schemas have read them). */
export interface Job<Request = unknown, Checkpoint = unknown> {
  jobId: string;
  tenantId: string;
  userId: string;
  type: JobType;
  status: JobStatus;
  progress: JobProgress;
  result?: Record<string, unknown>;
  error?: JobError;
  createdAt: string;
  updatedAt: string;
  request: Request;
  checkpoint: Checkpoint;
  /** a failed launch: whether everything it made is gone, and what could not be undone (paused) */
  rolledBack?: boolean;
  orphans?: LaunchOrphan[];
  /** the last failure of a run that will be retried: the reason the dead-letter path reports */
  lastError?: JobError;
  /** a run that waits for the platform resumes no sooner than this (epoch ms) */
  resumeAt?: number;
  leaseOwner?: string;
  leaseUntil?: number;
  /** sent by the request that carried the list (a multipart upload), not by the worker */
  runsInRequest?: true;
  /** who started it, and in which request: the audit event of its end names them */
  startedBy?: { actor: AuditActor; requestId?: string };
}

export const JOB_SORT_KEY = 'JOB';
/** the condition values of an unfinished job's status */
export const UNFINISHED = { ':queued': 'queued', ':running': 'running' };

export async function findJob(tenantId: string, jobId: string): Promise<Job | undefined> {
  const { Item } = await documentStore().send(new GetCommand({ TableName: mainTableName(), Key: keys.job(tenantId, jobId), ConsistentRead: true }));
  return Item as Job | undefined;
}
