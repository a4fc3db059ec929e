import { clock } from '../../../../shared/core/clock.ts';
import { PlatformRejected } from '../../../../shared/core/errors.ts';
import { log } from '../../../../shared/core/logger.ts';
import {
  accountOrganization,
  finalizeVideoUpload,
  initializeVideoUpload,
  mediaStatus,
  uploadVideoPart,
} from '../../../../shared/platforms/professional/media.ts';
import { professionalSession } from '../../../../shared/platforms/professional/session.ts';
import { StagedRanges } from '../../../../shared/storage/staged-ranges.ts';
import type { JobRun } from '../../jobs/job-run.ts';
import { lostAnswer, sendInOrder } from '../../jobs/steps.ts';
import { acknowledged, type MediaJob, startOver, type VideoUpload } from '../../media/video-upload.ts';

/**
 * The professional network's video: the upload instructions' parts in order, each to its pre-signed URL,
 * its ETag kept in the checkpoint; finalize with the ETags in order (a lost answer read back: a video no
 * longer WAITING_UPLOAD was finalized); then its status until AVAILABLE. URLs past their time start the
 * upload over.
 */

const UPLOAD_FIELDS = ['videoId', 'uploadToken', 'parts', 'etags', 'uploadExpiresAt'] as const;

type Session = ReturnType<typeof professionalSession>;

export const professionalVideoUpload: VideoUpload = {
  open: (run, job, user) => {
    const session = professionalSession(user, run.context);
    return {
      send: () => sendVideo(run, job, session),
      processing: async () => {
        const { status, reason } = await mediaStatus(session, job.checkpoint.videoId ?? '');
        return {
          status: status === 'AVAILABLE' ? 'ready' : status === 'PROCESSING_FAILED' ? 'error' : 'processing',
          ...(reason ? { reason } : {}),
        };
      },
      refusalOf: (error) => error,
    };
  },
};

async function sendVideo(run: JobRun, job: MediaJob, session: Session): Promise<void> {
  const { request, checkpoint } = job;
  if (checkpoint.parts === undefined) {
    run.checkTime();
    // an initialize whose answer was lost leaves an unused upload on the platform; the next run makes another
    const owner = await accountOrganization(session, request.adAccountId);
    const upload = await initializeVideoUpload(session, owner, job.progress.totalBytes);
    Object.assign(checkpoint, {
      videoId: upload.video,
      uploadToken: upload.uploadToken,
      parts: upload.parts,
      etags: [],
      ...(upload.expiresAt ? { uploadExpiresAt: upload.expiresAt } : {}),
    });
    await run.save();
  }
  if (!(await sendParts(run, job, session))) {
    // the platform's URLs have expired (a job resumed late): the upload starts over with new ones
    await startOver(run, job, UPLOAD_FIELDS, 'professional upload URLs expired; starting the upload over');
    return sendVideo(run, job, session);
  }
  run.checkTime();
  const video = checkpoint.videoId ?? '';
  try {
    await finalizeVideoUpload(session, { video, uploadToken: checkpoint.uploadToken ?? '' }, checkpoint.etags ?? []);
  } catch (error) {
    if (!lostAnswer(error)) throw error;
    const read = await mediaStatus(session, video).catch(() => undefined);
    if (!read || read.status === 'WAITING_UPLOAD') throw error;
    log().warn('a video’s finalizeUpload lost its answer; read back, the platform had it');
  }
}

/** The parts not yet acknowledged, in order, each ETag saved before the next is sent; false when the upload's URLs have expired. */
async function sendParts(run: JobRun, job: MediaJob, session: Session): Promise<boolean> {
  const { request, checkpoint } = job;
  const parts = checkpoint.parts ?? [];
  checkpoint.etags ??= [];
  const etags = checkpoint.etags;
  const file = StagedRanges.ofUpload(request.objectKey, request.etag);
  try {
    await sendInOrder(run, {
      next: () => parts[etags.length],
      send: async (part) => {
        const bytes = await file.get(part.firstByte, part.lastByte + 1);
        const next = parts[etags.length + 1];
        if (next) file.readAhead(next.firstByte, next.lastByte + 1);
        return uploadVideoPart(session, part, bytes);
      },
      acknowledge: (part, etag) => {
        etags.push(etag);
        acknowledged(job, part.lastByte + 1, true);
      },
    });
    return true;
  } catch (error) {
    if (uploadExpired(error, job)) return false;
    throw error;
  } finally {
    await file.close();
  }
}

/** A part refused (4xx, not throttling) once its upload's URLs are past their time: the upload must start over. */
function uploadExpired(error: unknown, { checkpoint }: MediaJob): boolean {
  const status = error instanceof PlatformRejected ? Number(error.extra.platformStatus) : 0;
  return status >= 400 && status < 500 && checkpoint.uploadExpiresAt !== undefined && clock.now() >= checkpoint.uploadExpiresAt;
}
