import { clock } from '../../../shared/core/clock.ts';
import { MediaProcessingFailed, PlatformRejected, PlatformTimeout, PlatformUnavailable, UnsupportedMedia } from '../../../shared/core/errors.ts';
import { log } from '../../../shared/core/logger.ts';
import { finishVideoUpload, startVideoUpload, transferVideoChunk, videoStatus } from '../../../shared/platforms/social/ad-videos.ts';
import { socialSession } from '../../../shared/platforms/social/session.ts';
import {
  accountOrganization,
  finalizeVideoUpload,
  initializeVideoUpload,
  mediaStatus,
  type UploadPart,
  uploadVideoPart,
} from '../../../shared/platforms/professional/media.ts';
import { professionalSession } from '../../../shared/platforms/professional/session.ts';
import type { MediaCheckpoint, MediaJobRequest } from '../../../shared/store/jobs.ts';
import type { User } from '../../../shared/store/users.ts';
import { StagedRanges } from '../../../shared/storage/staged-ranges.ts';
import { stagedUploadKey } from '../../../shared/storage/staging.ts';
import { stageVideoFromUrl, uploadedKind } from '../../../shared/media/source.ts';
import { type JobRun, Pause } from '../jobs/job-run.ts';

/**
 * An ad_media job (docs/decisions.md, "Media into an ad account"): a video from the user's upload into
 * their social or professional ad account, in the platform's chunks, then its processing followed to the end.
 *
 * Exactly once per chunk: the job's checkpoint is the step record, saved after every acknowledged chunk
 * and before the next is sent (social: the range the platform asked for next; professional: the parts'
 * ETags so far), so a redelivered or restarted run sends only what was not acknowledged. A social chunk
 * whose answer never came is sent again at the same offset, and the platform either takes it or names
 * the offset it wants (1363037), which the run follows. An upload the platform no longer takes (a social
 * session that ended, professional URLs past their time) starts over. Processing is polled on queue
 * delays (the run pauses; it never sleeps).
 */

/** The waits between processing polls: 10 s, 20 s, 40 s, then every 60 s, for at most 30 minutes after finish. */
const POLL_DELAYS_SECONDS = [10, 20, 40];
const POLL_EVERY_SECONDS = 60;
const PROCESSING_LIMIT_MS = 30 * 60_000;

/** The platform's codes for a file it will not take (docs/platforms.md, "Social: videos"). */
const MEDIA_CODES = new Set([6000, 6001, 351, 352, 382, 389]);

/**
 * A social upload session resumed this long after it was opened is not sent to: the platform does not
 * say how long one lives (hours, it seems), so the upload starts over (docs/decisions.md).
 */
const SESSION_TRUSTED_MS = 24 * 3600_000;
/** The upload sessions one job opens at most before it gives the video up. */
const MAX_SESSIONS = 3;
const SOCIAL_SESSION_FIELDS = ['sessionId', 'videoId', 'nextRange', 'sessionOpenedAt'] as const;
const PROFESSIONAL_UPLOAD_FIELDS = ['videoId', 'uploadToken', 'parts', 'etags', 'uploadExpiresAt'] as const;

export interface VideoMedia {
  type: 'VIDEO';
  id: string;
  status: 'ready';
}

/** The job of a video upload (or of a video at a URL, fetched into the bucket first), on the platform it was made for. */
export async function runAdMediaJob(run: JobRun, user: User): Promise<{ media: VideoMedia }> {
  const request = run.job.request as MediaJobRequest;
  if (request.sourceUrl && !request.objectKey) await stageFromUrl(run, request, request.sourceUrl);
  return request.platform === 'social' ? runSocialVideoJob(run, user) : runProfessionalVideoJob(run, user);
}

/**
 * A video at a URL, streamed into the bucket before anything goes to the platform; a run that dies
 * during it fetches the file again from its start (nothing was sent upstream yet). Its first bytes
 * are checked again: the URL may have changed since the call looked.
 */
async function stageFromUrl(run: JobRun, request: MediaJobRequest, url: string): Promise<void> {
  run.checkTime();
  const key = stagedUploadKey(run.job.tenantId, run.job.userId, run.job.jobId, 'video');
  const deadline = run.context.getRemainingTimeInMillis();
  const staged = await stageVideoFromUrl(url, key, AbortSignal.timeout(Math.max(1, deadline - 10_000)));
  Object.assign(request, { objectKey: key, etag: staged.etag });
  run.job.progress.totalBytes = staged.contentLength;
  if ((await uploadedKind({ objectKey: key, etag: staged.etag, contentLength: staged.contentLength }))?.type !== 'VIDEO')
    throw new UnsupportedMedia('The file at the URL is no longer an MP4 or QuickTime video (its first bytes say so); nothing was sent.');
  await run.save();
}

/**
 * The social platform's video: its resumable upload (start, the ranges it names, finish), then its status.
 */
async function runSocialVideoJob(run: JobRun, user: User): Promise<{ media: VideoMedia }> {
  const request = run.job.request as MediaJobRequest;
  const checkpoint = run.job.checkpoint as MediaCheckpoint;
  const session = socialSession(user, run.context);
  try {
    if (checkpoint.finishedAt === undefined) await sendVideo(run, session, request, checkpoint);
    return await followProcessing(run, checkpoint, () => videoStatus(session, checkpoint.videoId as string));
  } catch (error) {
    if (error instanceof PlatformRejected && MEDIA_CODES.has(Number(error.extra.platformCode))) {
      throw new MediaProcessingFailed(`The platform would not take the video: ${error.message}`);
    }
    throw error;
  }
}

type Session = ReturnType<typeof socialSession>;
type ProfessionalSession = ReturnType<typeof professionalSession>;

/** The upload: a session (opened once, its answer saved), the chunks, finish; a session that has ended, or is a day old, is started over. */
async function sendVideo(run: JobRun, session: Session, request: MediaJobRequest, checkpoint: MediaCheckpoint): Promise<void> {
  if (checkpoint.sessionId !== undefined && clock.now() - (checkpoint.sessionOpenedAt ?? clock.now()) >= SESSION_TRUSTED_MS)
    await startOver(run, checkpoint, SOCIAL_SESSION_FIELDS, 'the social upload session was opened a day ago or more; starting the upload over');
  if (checkpoint.sessionId === undefined) {
    if ((checkpoint.sessionsOpened ?? 0) >= MAX_SESSIONS)
      throw new MediaProcessingFailed(`The platform let ${MAX_SESSIONS} upload sessions end before it had the whole video; upload it again later.`);
    run.checkTime();
    // a start whose answer was lost leaves an unused session on the platform (it expires); the next run opens another
    const opened = await startVideoUpload(session, request.adAccountId, run.job.progress.totalBytes);
    Object.assign(checkpoint, {
      sessionId: opened.sessionId,
      videoId: opened.videoId,
      nextRange: wanted(opened, run.job.progress.totalBytes),
      sessionOpenedAt: clock.now(),
      sessionsOpened: (checkpoint.sessionsOpened ?? 0) + 1,
    });
    await run.save();
  }
  try {
    await sendChunks(run, session, request, checkpoint);
    run.checkTime();
    await finish(session, request, checkpoint);
  } catch (error) {
    if (!(await sessionExpired(error, session, checkpoint))) throw error;
    await startOver(run, checkpoint, SOCIAL_SESSION_FIELDS, 'the platform let the social upload session expire; starting the upload over');
    return sendVideo(run, session, request, checkpoint);
  }
  checkpoint.finishedAt = clock.now();
  checkpoint.processing = { status: 'processing' };
  await run.save();
}

/** The ranges the platform names, each sent once its predecessor's acknowledgement is saved. */
async function sendChunks(run: JobRun, session: Session, request: MediaJobRequest, checkpoint: MediaCheckpoint): Promise<void> {
  const totalBytes = run.job.progress.totalBytes;
  const file = StagedRanges.ofUpload(request.objectKey, request.etag);
  try {
    for (;;) {
      const range = checkpoint.nextRange as { start: number; end: number };
      if (range.start >= range.end) return; // the platform has every byte
      run.checkTime();
      const chunk = await file.get(range.start, range.end);
      // the platform usually asks next for the range after this one, as long: read it while this one goes
      file.readAhead(range.end, Math.min(totalBytes, range.end + (range.end - range.start)));
      const answer = await transferVideoChunk(session, request.adAccountId, checkpoint.sessionId as string, range.start, chunk);
      acknowledged(run, answer.start, !answer.corrected);
      checkpoint.nextRange = wanted(answer, totalBytes);
      await run.save();
    }
  } finally {
    await file.close();
  }
}

/**
 * Whether a refused transfer or finish was the session's end. The platform names no error for it (a
 * "problem uploading your video", 6000/6001, most likely), so whatever the refusal's code, the video is
 * read back, and only `expired` counts.
 */
async function sessionExpired(error: unknown, session: Session, checkpoint: MediaCheckpoint): Promise<boolean> {
  if (!(error instanceof PlatformRejected) || checkpoint.videoId === undefined) return false;
  const status = await videoStatus(session, checkpoint.videoId).catch(() => undefined);
  return status?.expired === true;
}

/** An upload the platform no longer takes (its session or URLs ended): what it had is forgotten, and the next step opens a new one. */
async function startOver(run: JobRun, checkpoint: MediaCheckpoint, fields: ReadonlyArray<keyof MediaCheckpoint>, why: string): Promise<void> {
  log().warn(why, { chunksAcknowledged: run.job.progress.batchesSent });
  for (const field of fields) delete checkpoint[field];
  run.job.progress.bytesRead = 0;
  run.job.progress.batchesSent = 0;
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

/** Where the platform's processing is, in our words. */
interface Processing {
  status: 'processing' | 'ready' | 'error';
  percent?: number;
  reason?: string;
}

async function followProcessing(run: JobRun, checkpoint: MediaCheckpoint, read: () => Promise<Processing>): Promise<{ media: VideoMedia }> {
  run.checkTime();
  const status = await read();
  checkpoint.polls += 1;
  checkpoint.processing = { status: status.status, ...(status.percent !== undefined ? { percent: status.percent } : {}) };
  if (status.status === 'ready') return { media: { type: 'VIDEO', id: checkpoint.videoId as string, status: 'ready' } };
  if (status.status === 'error') throw new MediaProcessingFailed(`The platform could not process the video: ${status.reason ?? 'no reason given'}`);
  if (clock.now() - (checkpoint.finishedAt as number) >= PROCESSING_LIMIT_MS)
    throw new MediaProcessingFailed('The platform was still processing the video 30 minutes after it had every byte; upload it again later.');
  await run.save();
  throw new Pause(POLL_DELAYS_SECONDS[checkpoint.polls - 1] ?? POLL_EVERY_SECONDS);
}

/** A part refused (4xx, not throttling) once its upload's URLs are past their time: the upload must start over. */
function uploadExpired(error: unknown, checkpoint: MediaCheckpoint): boolean {
  const status = error instanceof PlatformRejected ? Number(error.extra.platformStatus) : 0;
  return status >= 400 && status < 500 && checkpoint.uploadExpiresAt !== undefined && clock.now() >= checkpoint.uploadExpiresAt;
}

/** The parts not yet acknowledged, in order, each ETag saved before the next is sent; false when the upload's URLs have expired. */
async function sendParts(run: JobRun, session: ProfessionalSession, request: MediaJobRequest, checkpoint: MediaCheckpoint): Promise<boolean> {
  const parts = checkpoint.parts as UploadPart[];
  const etags = checkpoint.etags as string[];
  const file = StagedRanges.ofUpload(request.objectKey, request.etag);
  try {
    while (etags.length < parts.length) {
      const part = parts[etags.length] as UploadPart;
      run.checkTime();
      const bytes = await file.get(part.firstByte, part.lastByte + 1);
      const next = parts[etags.length + 1];
      if (next) file.readAhead(next.firstByte, next.lastByte + 1);
      let etag: string;
      try {
        etag = await uploadVideoPart(session, part, bytes);
      } catch (error) {
        if (uploadExpired(error, checkpoint)) return false;
        throw error;
      }
      etags.push(etag);
      acknowledged(run, part.lastByte + 1, true);
      await run.save();
    }
    return true;
  } finally {
    await file.close();
  }
}

/** The bytes and chunks the platform acknowledged, as get_job shows them. */
function acknowledged(run: JobRun, bytes: number, chunk: boolean): void {
  run.job.progress.bytesRead = bytes;
  if (chunk) run.job.progress.batchesSent += 1;
}

/**
 * The professional network's video: the upload instructions' parts in order, each to its pre-signed URL,
 * its ETag kept in the checkpoint; finalize with the ETags in order (a lost answer read back: a video no
 * longer WAITING_UPLOAD was finalized); then its status until AVAILABLE.
 */
async function runProfessionalVideoJob(run: JobRun, user: User): Promise<{ media: VideoMedia }> {
  const request = run.job.request as MediaJobRequest;
  const checkpoint = run.job.checkpoint as MediaCheckpoint;
  const session = professionalSession(user, run.context);
  if (checkpoint.finishedAt === undefined) {
    if (checkpoint.parts === undefined) {
      run.checkTime();
      // an initialize whose answer was lost leaves an unused upload on the platform; the next run makes another
      const owner = await accountOrganization(session, request.adAccountId);
      const upload = await initializeVideoUpload(session, owner, run.job.progress.totalBytes);
      Object.assign(checkpoint, {
        videoId: upload.video,
        uploadToken: upload.uploadToken,
        parts: upload.parts,
        etags: [],
        ...(upload.expiresAt ? { uploadExpiresAt: upload.expiresAt } : {}),
      });
      await run.save();
    }
    if (!(await sendParts(run, session, request, checkpoint))) {
      // the platform's URLs have expired (a job resumed late): the upload starts over with new ones
      await startOver(run, checkpoint, PROFESSIONAL_UPLOAD_FIELDS, 'professional upload URLs expired; starting the upload over');
      return runProfessionalVideoJob(run, user);
    }
    const etags = checkpoint.etags as string[];
    run.checkTime();
    try {
      await finalizeVideoUpload(session, { video: checkpoint.videoId as string, uploadToken: checkpoint.uploadToken ?? '' }, etags);
    } catch (error) {
      if (!(error instanceof PlatformTimeout || error instanceof PlatformUnavailable)) throw error;
      const read = await mediaStatus(session, checkpoint.videoId as string).catch(() => undefined);
      if (!read || read.status === 'WAITING_UPLOAD') throw error;
      log().warn('a video’s finalizeUpload lost its answer; read back, the platform had it');
    }
    checkpoint.finishedAt = clock.now();
    checkpoint.processing = { status: 'processing' };
    await run.save();
  }
  return followProcessing(run, checkpoint, async () => {
    const { status, reason } = await mediaStatus(session, checkpoint.videoId as string);
    return {
      status: status === 'AVAILABLE' ? 'ready' : status === 'PROCESSING_FAILED' ? 'error' : 'processing',
      ...(reason ? { reason } : {}),
    };
  });
}
