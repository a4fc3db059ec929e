import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { AudienceMode, ListType } from '../schemas/audiences.ts';
import { documentStore, mainTableName } from './client.ts';
import type { UploadProgress } from './upload-progress.ts';
import { keys } from './keys.ts';

/**
 * Audience jobs (docs/decisions.md "Uploads and audience jobs"): a list from a direct upload, sent by the
 * queue-driven worker. The item holds what the client sees (status, progress, result or error), what
 * the worker needs to go on (the request and a checkpoint) and the lease of the run that holds it.
 *   TENANT#<t>#JOB#<jobId> / JOB
 */
export type JobStatus = 'queued' | 'running' | 'succeeded' | 'failed';
export type JobType = 'social_audience' | 'professional_audience';

export interface JobProgress {
  bytesRead: number;
  totalBytes: number;
  rowsRead: number;
  rowsSent: number;
  batchesSent: number;
}

export interface SocialJobRequest {
  objectKey: string;
  /** the version of the file the start found: every read of the job asks for it (If-Match) */
  etag?: string;
  mode: AudienceMode;
  audienceId: string;
  audienceName: string;
}

export interface ProfessionalJobRequest {
  objectKey: string;
  etag?: string;
  type: ListType;
  audienceName: string;
}

/** After the check of the whole file: how many rows, and the sending so far. */
/** `Resume`: where the audience reader picks up (its own shape: the store keeps it as it is given). */
export interface SocialCheckpoint<Resume = unknown> extends UploadProgress {
  usableRows?: number;
  /** just past the last acknowledged batch's last row: a resume reads the file from there */
  resumeAt?: Resume;
  localInvalid: number;
  localSamples: Record<string, string>;
}

export interface ProfessionalCheckpoint {
  rows?: number;
  warnings?: string[];
  csvBytes?: number;
  /** the uploaded file's media URN, once the platform has it */
  inputFile?: string;
  segmentId?: string;
}

export interface JobError {
  code: string;
  message: string;
}

export interface AudienceJob {
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
  request: SocialJobRequest | ProfessionalJobRequest;
  checkpoint: SocialCheckpoint | ProfessionalCheckpoint;
  /** the last failure of a run that will be retried: the reason the dead-letter path reports */
  lastError?: JobError;
  /** a run that waits for the platform resumes no sooner than this (epoch ms) */
  resumeAt?: number;
  leaseOwner?: string;
  leaseUntil?: number;
}

/** What get_job and the webhooks show. */
export type JobView = Pick<AudienceJob, 'jobId' | 'type' | 'userId' | 'status' | 'progress' | 'result' | 'error' | 'createdAt' | 'updatedAt'>;

export const JOB_SORT_KEY = 'JOB';
/** the condition values of an unfinished job's status */
export const UNFINISHED = { ':queued': 'queued', ':running': 'running' };

export async function findJob(tenantId: string, jobId: string): Promise<AudienceJob | undefined> {
  const { Item } = await documentStore().send(new GetCommand({ TableName: mainTableName(), Key: keys.audienceJob(tenantId, jobId), ConsistentRead: true }));
  return Item as AudienceJob | undefined;
}

export function viewOf(job: AudienceJob): JobView {
  return {
    jobId: job.jobId,
    type: job.type,
    userId: job.userId,
    status: job.status,
    progress: job.progress,
    ...(job.result ? { result: job.result } : {}),
    ...(job.error ? { error: job.error } : {}),
    createdAt: job.createdAt,
    updatedAt: job.updatedAt,
  };
}
