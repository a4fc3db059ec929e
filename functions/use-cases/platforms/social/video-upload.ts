import { clock } from '../../../../shared/core/clock.ts';
import { MediaProcessingFailed, PlatformRejected } from '../../../../shared/core/errors.ts';
import { log } from '../../../../shared/core/logger.ts';
import { finishVideoUpload, startVideoUpload, transferVideoChunk, videoStatus } from '../../../../shared/platforms/social/ad-videos.ts';
import { socialSession } from '../../../../shared/platforms/social/session.ts';
import { StagedRanges } from '../../../../shared/storage/staged-ranges.ts';
import type { JobRun } from '../../jobs/job-run.ts';
import { lostAnswer, sendInOrder } from '../../jobs/steps.ts';
import { acknowledged, type MediaJob, startOver, type VideoUpload } from '../../media/video-upload.ts';

/**
 * The social platform's video: its resumable upload (a session, the ranges it names, finish), then its
 * status. A chunk whose answer never came is sent again at the same offset, and the platform either
 * takes it or names the offset it wants (1363037), which the run follows. A session that has ended, or
 * is a day old, is started over.
 */

/** The platform's codes for a file it will not take (docs/platforms.md, "Social: videos"). */
const MEDIA_CODES = new Set([6000, 6001, 351, 352, 382, 389]);

/**
 * A social upload session resumed this long after it was opened is not sent to: the platform does not
 * say how long one lives (hours, it seems), so the upload starts over (docs/decisions.md).
 */
const SESSION_TRUSTED_MS = 24 * 3600_000;
/** The upload sessions one job opens at most before it gives the video up. */
const MAX_SESSIONS = 3;
const SESSION_FIELDS = ['sessionId', 'videoId', 'nextRange', 'sessionOpenedAt'] as const;

type Session = ReturnType<typeof socialSession>;

export const socialVideoUpload: VideoUpload = {
  open: (run, job, user) => {
    const session = socialSession(user, run.context);
    return {
      send: () => sendVideo(run, job, session),
      processing: () => videoStatus(session, job.checkpoint.videoId ?? ''),
      refusalOf: (error) =>
        error instanceof PlatformRejected && MEDIA_CODES.has(Number(error.extra.platformCode))
          ? new MediaProcessingFailed(`The platform would not take the video: ${error.message}`)
          : error,
    };
  },
};

/** The upload: a session (opened once, its answer saved), the chunks, finish. */
async function sendVideo(run: JobRun, job: MediaJob, session: Session): Promise<void> {
  const { request, checkpoint } = job;
  if (checkpoint.sessionId !== undefined && clock.now() - (checkpoint.sessionOpenedAt ?? clock.now()) >= SESSION_TRUSTED_MS)
    await startOver(run, job, SESSION_FIELDS, 'the social upload session was opened a day ago or more; starting the upload over');
  let sessionId = checkpoint.sessionId;
  if (sessionId === undefined) {
    if ((checkpoint.sessionsOpened ?? 0) >= MAX_SESSIONS)
      throw new MediaProcessingFailed(`The platform let ${MAX_SESSIONS} upload sessions end before it had the whole video; upload it again later.`);
    run.checkTime();
    // a start whose answer was lost leaves an unused session on the platform (it expires); the next run opens another
    const opened = await startVideoUpload(session, request.adAccountId, job.progress.totalBytes);
    sessionId = opened.sessionId;
    Object.assign(checkpoint, {
      sessionId,
      videoId: opened.videoId,
      nextRange: wanted(opened, job.progress.totalBytes),
      sessionOpenedAt: clock.now(),
      sessionsOpened: (checkpoint.sessionsOpened ?? 0) + 1,
    });
    await run.save();
  }
  try {
    await sendChunks(run, job, session, sessionId);
    run.checkTime();
    await finish(job, session, sessionId);
  } catch (error) {
    if (!(await sessionExpired(error, job, session))) throw error;
    await startOver(run, job, SESSION_FIELDS, 'the platform let the social upload session expire; starting the upload over');
    return sendVideo(run, job, session);
  }
}

/** The ranges the platform names, in order: each acknowledgement (the range it wants next) saved before the next is sent. */
async function sendChunks(run: JobRun, job: MediaJob, session: Session, sessionId: string): Promise<void> {
  const { request, checkpoint } = job;
  const totalBytes = job.progress.totalBytes;
  const file = StagedRanges.ofUpload(request.objectKey, request.etag);
  try {
    await sendInOrder(run, {
      next: () => (checkpoint.nextRange && checkpoint.nextRange.start < checkpoint.nextRange.end ? checkpoint.nextRange : undefined),
      send: async (range) => {
        const chunk = await file.get(range.start, range.end);
        // the platform usually asks next for the range after this one, as long: read it while this one goes
        file.readAhead(range.end, Math.min(totalBytes, range.end + (range.end - range.start)));
        return transferVideoChunk(session, request.adAccountId, sessionId, range.start, chunk);
      },
      acknowledge: (_range, answer) => {
        acknowledged(job, answer.start, !answer.corrected);
        checkpoint.nextRange = wanted(answer, totalBytes);
      },
    });
  } finally {
    await file.close();
  }
}

/**
 * Whether a refused transfer or finish was the session's end. The platform names no error for it (a
 * "problem uploading your video", 6000/6001, most likely), so whatever the refusal's code, the video is
 * read back, and only `expired` counts.
 */
async function sessionExpired(error: unknown, { checkpoint }: MediaJob, session: Session): Promise<boolean> {
  if (!(error instanceof PlatformRejected) || checkpoint.videoId === undefined) return false;
  const status = await videoStatus(session, checkpoint.videoId).catch(() => undefined);
  return status?.expired === true;
}

/** The range the platform named, checked against the file: one outside it is a refusal, never a read past the end. */
function wanted(range: { start: number; end: number }, totalBytes: number): { start: number; end: number } {
  if (range.start > range.end || range.end > totalBytes)
    throw new PlatformRejected('social', `The platform asked for bytes ${range.start}–${range.end} of a ${totalBytes}-byte video.`);
  return { start: range.start, end: range.end };
}

/** finish, once: a lost answer is read back (the video's upload phase) before the next run sends it again. */
async function finish({ request, checkpoint }: MediaJob, session: Session, sessionId: string): Promise<void> {
  try {
    await finishVideoUpload(session, request.adAccountId, sessionId, request.name);
  } catch (error) {
    if (!lostAnswer(error)) throw error;
    const status = await videoStatus(session, checkpoint.videoId ?? '').catch(() => undefined);
    if (!status?.uploaded) throw error;
    log().warn('a video upload’s finish lost its answer; read back, the platform had it');
  }
}
