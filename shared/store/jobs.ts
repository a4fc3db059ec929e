import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { AuditActor } from '../core/audit.ts';
import type { PlatformDetail } from '../core/errors.ts';
import type { AudienceMode, ListType } from '../schemas/audiences.ts';
import type { ProfessionalLaunchPlan } from '../schemas/professional-launch.ts';
import type { SocialLaunchPlan } from '../schemas/social-launch.ts';
import { documentStore, mainTableName } from './client.ts';
import { keys } from './keys.ts';

/**
 * Audience jobs (docs/decisions.md "Uploads and audience jobs"): the one record of a contact list on
 * its way to a platform, whichever way it came. A list from a direct upload is sent by the
 * queue-driven worker; a list sent in the request's body is sent by the request itself, through the
 * same code (`runsInRequest`: never queued or swept, never shown by get_job, gone when it ends). The
 * item holds what the client sees (status, progress, result or error), what a run needs to go on (the
 * request and a checkpoint) and the lease of the run that holds it.
 *   TENANT#<t>#JOB#<jobId> / JOB
 */
export type JobStatus = 'queued' | 'running' | 'succeeded' | 'failed';
export type JobType = 'social_audience' | 'professional_audience' | 'ad_media' | 'campaign_launch';

export interface JobProgress {
  bytesRead: number;
  totalBytes: number;
  rowsRead: number;
  rowsSent: number;
  batchesSent: number;
}

/**
 * How far the sending of a social list got: the audience, the platform's upload session, the batches
 * the platform acknowledged and the one in flight, so that a resumed run goes on after the last
 * acknowledged batch (resending the one in flight, with its number).
 */
export interface UploadProgress {
  audienceId?: string;
  sessionId: number;
  batchesAcked: number;
  rowsAcked: number;
  /** the batch sent and not yet acknowledged: a resume sends it again with the same number */
  inFlightBatch?: number;
  /** the platform's figures from its last acknowledgement (cumulative per session) */
  platformReceived: number;
  platformInvalid: number;
  /** what the platform counted twice because a batch was resent after a crash */
  duplicateReceived: number;
  duplicateInvalid: number;
  platformSamples: Record<string, string>;
}

/** Nothing sent yet, in upload session `sessionId`. */
export function newUploadProgress(sessionId: number): UploadProgress {
  return { sessionId, batchesAcked: 0, rowsAcked: 0, platformReceived: 0, platformInvalid: 0, duplicateReceived: 0, duplicateInvalid: 0, platformSamples: {} };
}

export interface SocialJobRequest {
  objectKey: string;
  /** the version of the file the start found: every read of the job asks for it (If-Match) */
  etag?: string;
  mode: AudienceMode;
  /** the audience the rows go to; created once the file has been checked when the request had none yet */
  audienceId?: string;
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
  /** when a segment create was sent (epoch ms): a run that finds it with no segmentId reads back before creating */
  segmentCreateSentAt?: number;
  segmentId?: string;
}

/** A video on its way into an ad account (docs/decisions.md "Media into an ad account"). */
export interface MediaJobRequest {
  /** the staged file; empty until a URL's job has streamed it into the bucket */
  objectKey: string;
  /** a video given by URL: the job's first step fetches it */
  sourceUrl?: string;
  etag?: string;
  platform: 'social' | 'professional';
  adAccountId: string;
  name?: string;
}

/**
 * How far a video got: the platform's upload session and the range it asked for next (every range
 * before it acknowledged), then processing, polled on queue delays from `finishedAt` on.
 * An ad_media job's `progress` keeps `bytesRead` = bytes acknowledged and `batchesSent` = chunks
 * acknowledged; get_job shows them as `bytesSent` and `chunksSent`.
 */
export interface MediaCheckpoint {
  /** social: the upload session, when it was opened (epoch ms) and how many the job has opened */
  sessionId?: string;
  sessionOpenedAt?: number;
  sessionsOpened?: number;
  /** the video's id (social) or URN (professional) */
  videoId?: string;
  /** the range the platform wants next, [start, end) */
  nextRange?: { start: number; end: number };
  finishedAt?: number;
  polls: number;
  /** professional: the upload instructions' parts, the ETags of those acknowledged (in order) and the token to send back */
  parts?: Array<{ uploadUrl: string; firstByte: number; lastByte: number }>;
  etags?: string[];
  uploadToken?: string;
  /** professional: when the parts' URLs stop answering (epoch ms); a part refused after it starts the upload over */
  uploadExpiresAt?: number;
  processing?: { status: 'processing' | 'ready' | 'error'; percent?: number };
}

export interface JobError {
  code: string;
  message: string;
  /** a launch's refusal: what the platform said */
  platform?: PlatformDetail;
  /** BUDGET_TOO_LOW: the smallest daily budget, when the platform named it */
  minimum?: { amount: string; currency: string };
}

/** A whole-campaign launch (docs/decisions.md, "Launching a whole campaign"): the platform's params of every create, decided once at the request. */
export type LaunchJobRequest =
  | (LaunchJobCommon & { platform: 'social'; plan: SocialLaunchPlan })
  | (LaunchJobCommon & { platform: 'professional'; plan: ProfessionalLaunchPlan });

interface LaunchJobCommon {
  activate: boolean;
  /** what the history record shows of each ad: its texts and its image (for a social video, the thumbnail the job reads) */
  ads: Array<{ headline: string; primaryText: string; videoId?: string; image?: { id: string; url: string; width: number; height: number } }>;
  campaignName: string;
  /** the campaign's start (ms), or undefined for "at activation" */
  startMs?: number;
}

export type LaunchObjectType = 'campaign_group' | 'campaign' | 'adset' | 'creative' | 'ad';

/** An object the platform made for the job, stored before the next call. */
export interface LaunchReceipt {
  step: string;
  type: LaunchObjectType;
  platformId: string;
  /** set once a rollback deleted it */
  undone?: true;
}

/**
 * The launch's receipts, the create in flight (a run that finds it without a receipt reads back by
 * name before it sends anything), the thumbnails read for video ads, and once it is failing, its
 * error: a run after a crash goes on with the rollback.
 */
export interface LaunchCheckpoint {
  receipts: LaunchReceipt[];
  /**
   * The create in flight: what it makes, how often it was sent, and when it was first sent (epoch ms): a
   * read-back adopts only an object made after that (less the platform's clock slack).
   */
  pending?: { step: string; sends: number; type?: LaunchObjectType; name?: string; firstSentAt?: number };
  /** the activation, decided before its write: a run after a crash records it once, whatever the platform shows */
  activation?: 'decided';
  thumbnails?: Record<string, { url: string; width: number; height: number }>;
  /** media a professional launch waited for and found ready */
  mediaReady?: string[];
  /** how often a professional launch was parked by throttling (its wait doubles) */
  parks?: number;
  /** how many of the ads' history entries are stored */
  historyEntries?: number;
  failure?: JobError;
  orphans?: LaunchOrphan[];
}

/**
 * What a failed launch left in the account: an object it made and could not remove (paused), or one a
 * create whose answer was lost may have made and no read-back found (`id: null`, `possible: true`).
 */
export type LaunchOrphan = { type: LaunchObjectType; id: string } | { type: LaunchObjectType; id: null; name: string; possible: true };

export interface Job {
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
  request: SocialJobRequest | ProfessionalJobRequest | MediaJobRequest | LaunchJobRequest;
  checkpoint: SocialCheckpoint | ProfessionalCheckpoint | MediaCheckpoint | LaunchCheckpoint;
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

/** What a video job shows of its progress. */
export interface MediaProgress {
  bytesSent: number;
  totalBytes: number;
  chunksSent: number;
  processing?: MediaCheckpoint['processing'];
}

/** What a launch shows of its progress: each step, and the object it made. */
export interface LaunchProgress {
  steps: Array<{ step: string; status: 'pending' | 'done' | 'undone' | 'orphaned'; platformId?: string }>;
}

/** What get_job and the webhooks show. */
export type JobView = Pick<Job, 'jobId' | 'type' | 'userId' | 'status' | 'result' | 'error' | 'createdAt' | 'updatedAt' | 'rolledBack' | 'orphans'> & {
  progress: JobProgress | MediaProgress | LaunchProgress;
};

/**
 * The steps of a launch, in order, then the activation when asked. Social: campaign, ad set, then a
 * creative and an ad per ad. Professional: campaign group, campaign, then a creative per ad.
 */
export function launchSteps(request: LaunchJobRequest): string[] {
  const made =
    request.platform === 'social'
      ? ['campaign', 'adset', ...request.plan.ads.flatMap((_ad, index) => [`creative:${index}`, `ad:${index}`])]
      : ['group', 'campaign', ...request.plan.creatives.map((_creative, index) => `creative:${index}`)];
  return [...made, ...(request.activate ? ['activate'] : [])];
}

function launchProgressOf(job: Job): LaunchProgress {
  const checkpoint = job.checkpoint as LaunchCheckpoint;
  const orphaned = new Set((checkpoint.orphans ?? job.orphans ?? []).map((orphan) => orphan.id));
  return {
    steps: launchSteps(job.request as LaunchJobRequest).map((step) => {
      const receipt = checkpoint.receipts.find((candidate) => candidate.step === step);
      if (!receipt) return { step, status: step === 'activate' && job.status === 'succeeded' ? ('done' as const) : ('pending' as const) };
      const status = receipt.undone ? ('undone' as const) : orphaned.has(receipt.platformId) ? ('orphaned' as const) : ('done' as const);
      return { step, status, platformId: receipt.platformId };
    }),
  };
}

function progressOf(job: Job): JobProgress | MediaProgress | LaunchProgress {
  if (job.type === 'campaign_launch') return launchProgressOf(job);
  if (job.type !== 'ad_media') return job.progress;
  const { processing } = job.checkpoint as MediaCheckpoint;
  return {
    bytesSent: job.progress.bytesRead,
    totalBytes: job.progress.totalBytes,
    chunksSent: job.progress.batchesSent,
    ...(processing ? { processing } : {}),
  };
}

export const JOB_SORT_KEY = 'JOB';
/** the condition values of an unfinished job's status */
export const UNFINISHED = { ':queued': 'queued', ':running': 'running' };

export async function findJob(tenantId: string, jobId: string): Promise<Job | undefined> {
  const { Item } = await documentStore().send(new GetCommand({ TableName: mainTableName(), Key: keys.job(tenantId, jobId), ConsistentRead: true }));
  return Item as Job | undefined;
}

export function viewOf(job: Job): JobView {
  return {
    jobId: job.jobId,
    type: job.type,
    userId: job.userId,
    status: job.status,
    progress: progressOf(job),
    ...(job.result ? { result: job.result } : {}),
    ...(job.error ? { error: job.error } : {}),
    ...(job.rolledBack !== undefined ? { rolledBack: job.rolledBack, orphans: job.orphans ?? [] } : {}),
    createdAt: job.createdAt,
    updatedAt: job.updatedAt,
  };
}
