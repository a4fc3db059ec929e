import * as z from 'zod';
import { log } from '../../../shared/core/logger.ts';
import type { Job } from '../../../shared/store/jobs.ts';
import type { User } from '../../../shared/store/users.ts';
import type { JobRun } from '../jobs/job-run.ts';

/** What an ad_media job stores, and what each platform's video upload (one module each) is given. */

export const mediaJobRequestSchema = z.object({
  /** the staged file; empty until a URL's job has streamed it into the bucket */
  objectKey: z.string(),
  /** a video given by URL: the job's first step fetches it */
  sourceUrl: z.string().optional(),
  etag: z.string().optional(),
  platform: z.enum(['social', 'professional']),
  adAccountId: z.string(),
  name: z.string().optional(),
});
export type MediaJobRequest = z.infer<typeof mediaJobRequestSchema>;

const range = z.object({ start: z.number(), end: z.number() });

/**
 * How far a video got: the platform's upload session and the range it asked for next (every range
 * before it acknowledged), then processing, polled on queue delays from `finishedAt` on. The job's
 * `progress` keeps `bytesRead` = bytes acknowledged and `batchesSent` = chunks acknowledged; get_job
 * shows them as `bytesSent` and `chunksSent`.
 */
export const mediaCheckpointSchema = z.object({
  /** social: the upload session, when it was opened (epoch ms) and how many the job has opened */
  sessionId: z.string().optional(),
  sessionOpenedAt: z.number().optional(),
  sessionsOpened: z.number().optional(),
  /** the video's id (social) or URN (professional) */
  videoId: z.string().optional(),
  /** the range the platform wants next, [start, end) */
  nextRange: range.optional(),
  finishedAt: z.number().optional(),
  polls: z.number(),
  /** professional: the upload instructions' parts, the ETags of those acknowledged (in order) and the token to send back */
  parts: z.array(z.object({ uploadUrl: z.string(), firstByte: z.number(), lastByte: z.number() })).optional(),
  etags: z.array(z.string()).optional(),
  uploadToken: z.string().optional(),
  /** professional: when the parts' URLs stop answering (epoch ms); a part refused after it starts the upload over */
  uploadExpiresAt: z.number().optional(),
  processing: z.object({ status: z.enum(['processing', 'ready', 'error']), percent: z.number().optional() }).optional(),
});
export type MediaCheckpoint = z.infer<typeof mediaCheckpointSchema>;
export type MediaJob = Job<MediaJobRequest, MediaCheckpoint>;

/** Where the platform's processing is, in our words. */
export interface Processing {
  status: 'processing' | 'ready' | 'error';
  percent?: number;
  reason?: string;
}

/** A platform's side of a video: its upload (every byte sent, then finished), and its processing as we say it. */
export interface VideoUpload {
  open(run: JobRun, job: MediaJob, user: User): { send(): Promise<void>; processing(): Promise<Processing>; refusalOf(error: unknown): unknown };
}

/** An upload the platform no longer takes (its session or URLs ended): what it had is forgotten, and the next step opens a new one. */
export async function startOver(run: JobRun, job: MediaJob, fields: ReadonlyArray<keyof MediaCheckpoint>, why: string): Promise<void> {
  log().warn(why, { chunksAcknowledged: job.progress.batchesSent });
  for (const field of fields) delete job.checkpoint[field];
  job.progress.bytesRead = 0;
  job.progress.batchesSent = 0;
  await run.save();
}

/** The bytes and chunks the platform acknowledged, as get_job shows them. */
export function acknowledged(job: MediaJob, bytes: number, chunk: boolean): void {
  job.progress.bytesRead = bytes;
  if (chunk) job.progress.batchesSent += 1;
}

/** What a video job shows of its progress: the bytes and chunks the platform acknowledged, then its processing. */
export const mediaProgressOf = ({ progress, checkpoint: { processing } }: MediaJob) => ({
  bytesSent: progress.bytesRead,
  totalBytes: progress.totalBytes,
  chunksSent: progress.batchesSent,
  ...(processing ? { processing } : {}),
});
