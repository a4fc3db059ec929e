import { clock } from '../../shared/core/clock.ts';
import { MediaProcessingFailed, PlatformRejected, PlatformTimeout, PlatformUnavailable } from '../../shared/core/errors.ts';
import { log } from '../../shared/core/logger.ts';
import { finishVideoUpload, startVideoUpload, transferVideoChunk, videoStatus } from '../../shared/platforms/social/ad-videos.ts';
import { socialSession } from '../../shared/platforms/social/session.ts';
import type { MediaCheckpoint, MediaJobRequest } from '../../shared/store/audience-jobs.ts';
import type { User } from '../../shared/store/users.ts';
import { readStagedRange } from '../../shared/storage/staging.ts';
import { type JobRun, Pause } from './audience-job-run.ts';

/**
 * An ad_media job (docs/decisions.md, "Media into an ad account"): a video from the user's upload into
 * their social ad account by the platform's resumable upload, then its processing followed to the end.
 *
 * Exactly once per chunk: the job's checkpoint is the step record. After every acknowledged chunk it
 * holds the range the platform asked for next (saved before the next chunk is read), so a redelivered or
 * restarted run sends only that range; a chunk whose answer never came is sent again at the same
 * offset, and the platform either takes it or names the offset it wants (1363037), which the run
 * follows. Processing is polled on queue delays (the run pauses; it never sleeps).
 */

/** The waits between processing polls: 10 s, 20 s, 40 s, then every 60 s, for at most 30 minutes after finish. */
const POLL_DELAYS_SECONDS = [10, 20, 40];
const POLL_EVERY_SECONDS = 60;
export const PROCESSING_LIMIT_MS = 30 * 60_000;

/** The platform's codes for a file it will not take (docs/platforms.md, "Social: videos"). */
const MEDIA_CODES = new Set([6000, 6001, 351, 352, 382, 389]);

export interface VideoMedia {
  type: 'VIDEO';
  id: string;
  status: 'ready';
}

export async function runSocialVideoJob(run: JobRun, user: User): Promise<{ media: VideoMedia }> {
  const request = run.job.request as MediaJobRequest;
  const checkpoint = run.job.checkpoint as MediaCheckpoint;
  const session = socialSession(user, run.context);
  try {
    if (checkpoint.finishedAt === undefined) await sendVideo(run, session, request, checkpoint);
    return await followProcessing(run, session, checkpoint);
  } catch (error) {
    if (error instanceof PlatformRejected && MEDIA_CODES.has(Number(error.extra.platformCode))) {
      throw new MediaProcessingFailed(`The platform would not take the video: ${error.message}`);
    }
    throw error;
  }
}

type Session = ReturnType<typeof socialSession>;

async function sendVideo(run: JobRun, session: Session, request: MediaJobRequest, checkpoint: MediaCheckpoint): Promise<void> {
  const progress = run.job.progress;
  if (checkpoint.sessionId === undefined) {
    run.checkTime();
    // a start whose answer was lost leaves an unused session on the platform (it expires); the next run opens another
    const opened = await startVideoUpload(session, request.adAccountId, progress.totalBytes);
    Object.assign(checkpoint, { sessionId: opened.sessionId, videoId: opened.videoId, nextRange: wanted(opened, progress.totalBytes) });
    await run.save();
  }
  const sessionId = checkpoint.sessionId as string;
  for (;;) {
    const range = checkpoint.nextRange as { start: number; end: number };
    if (range.start >= range.end) break; // the platform has every byte
    run.checkTime();
    const chunk = await readStagedRange(request.objectKey, range.start, range.end, request.etag);
    const answer = await transferVideoChunk(session, request.adAccountId, sessionId, range.start, chunk);
    if (!answer.corrected) progress.batchesSent += 1;
    progress.bytesRead = answer.start;
    checkpoint.nextRange = wanted(answer, progress.totalBytes);
    await run.save();
  }
  run.checkTime();
  await finish(session, request, checkpoint);
  checkpoint.finishedAt = clock.now();
  checkpoint.processing = { status: 'processing' };
  await run.save();
}

/** The range the platform named, checked against the file: one outside it is a refusal, never a read past the end. */
function wanted(range: { start: number; end: number }, totalBytes: number): { start: number; end: number } {
  if (range.start > range.end || range.end > totalBytes)
    throw new PlatformRejected('social', `The platform asked for bytes ${range.start}–${range.end} of a ${totalBytes}-byte video.`);
  return { start: range.start, end: range.end };
}

/** finish, once: a lost answer is read back (the video's upload phase) before the next run sends it again. */
async function finish(session: Session, request: MediaJobRequest, checkpoint: MediaCheckpoint): Promise<void> {
  try {
    await finishVideoUpload(session, request.adAccountId, checkpoint.sessionId as string, request.name);
  } catch (error) {
    if (!(error instanceof PlatformTimeout || error instanceof PlatformUnavailable)) throw error;
    const status = await videoStatus(session, checkpoint.videoId as string).catch(() => undefined);
    if (!status?.uploaded) throw error;
    log().warn('a video upload’s finish lost its answer; read back, the platform had it');
  }
}

async function followProcessing(run: JobRun, session: Session, checkpoint: MediaCheckpoint): Promise<{ media: VideoMedia }> {
  run.checkTime();
  const status = await videoStatus(session, checkpoint.videoId as string);
  checkpoint.polls += 1;
  checkpoint.processing = { status: status.status, ...(status.percent !== undefined ? { percent: status.percent } : {}) };
  if (status.status === 'ready') return { media: { type: 'VIDEO', id: checkpoint.videoId as string, status: 'ready' } };
  if (status.status === 'error') throw new MediaProcessingFailed(`The platform could not process the video: ${status.reason ?? 'no reason given'}`);
  if (clock.now() - (checkpoint.finishedAt as number) >= PROCESSING_LIMIT_MS)
    throw new MediaProcessingFailed('The platform was still processing the video 30 minutes after it had every byte; upload it again later.');
  await run.save();
  throw new Pause(POLL_DELAYS_SECONDS[checkpoint.polls - 1] ?? POLL_EVERY_SECONDS);
}
