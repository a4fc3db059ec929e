import { clock } from '../../../shared/core/clock.ts';
import { MediaProcessingFailed, type Platform, UnsupportedMedia } from '../../../shared/core/errors.ts';
import { stageVideoFromUrl, uploadedKind } from '../../../shared/media/source.ts';
import { stagedUploadKey } from '../../../shared/storage/staging.ts';
import type { User } from '../../../shared/store/users.ts';
import { defineJobKind } from '../jobs/job-kind.ts';
import type { JobRun } from '../jobs/job-run.ts';
import { pollUntil } from '../jobs/steps.ts';
import { professionalVideoUpload } from '../platforms/professional/video-upload.ts';
import { type MediaJob, type MediaJobRequest, mediaCheckpointSchema, mediaJobRequestSchema, type VideoUpload } from './video-upload.ts';
import { socialVideoUpload } from '../platforms/social/video-upload.ts';

/**
 * An ad_media job (docs/decisions.md, "Media into an ad account"): a video from the user's upload (or
 * at a URL, fetched into the bucket first) into their ad account, in the platform's chunks or parts
 * (send in order), then its processing followed to the end (poll until). What differs by platform is
 * one module each, found in VIDEO_UPLOADS.
 */

/** Every platform that takes videos, by name. */
const VIDEO_UPLOADS: Record<MediaJobRequest['platform'], VideoUpload> = {
  social: socialVideoUpload,
  professional: professionalVideoUpload,
};

export interface VideoMedia {
  type: 'VIDEO';
  id: string;
  status: 'ready';
}

/** The waits between processing polls: 10 s, 20 s, 40 s, then every 60 s, for at most 30 minutes after finish. */
const POLL_DELAYS_SECONDS = [10, 20, 40, 60];
const PROCESSING_LIMIT_MS = 30 * 60_000;

export const adMediaJob = defineJobKind({
  type: 'ad_media',
  request: mediaJobRequestSchema,
  checkpoint: mediaCheckpointSchema,
  platformOf: (request): Platform => request.platform,
  run: runAdMediaJob,
  endEvents: { succeeded: 'ad_media.ready', failed: 'ad_media.failed' },
  endAudit: (job) => ({
    action: 'ad_media.uploaded',
    target: { type: 'media', id: job.checkpoint.videoId ?? job.jobId },
    platform: job.request.platform,
    changes: { job: { to: job.jobId }, bytes: { to: job.progress.bytesRead } },
  }),
  // the file stays after the job (the bucket's lifecycle ends it): it may still go to another platform or ad account
});

export async function runAdMediaJob(run: JobRun, job: MediaJob, user: User): Promise<{ media: VideoMedia }> {
  const { request, checkpoint } = job;
  if (request.sourceUrl && !request.objectKey) await stageFromUrl(run, job, request.sourceUrl);
  const upload = VIDEO_UPLOADS[request.platform].open(run, job, user);
  try {
    if (checkpoint.finishedAt === undefined) {
      await upload.send();
      checkpoint.finishedAt = clock.now();
      checkpoint.processing = { status: 'processing' };
      await run.save();
    }
    const finishedAt = checkpoint.finishedAt;
    const videoId = checkpoint.videoId ?? '';
    return await pollUntil<{ media: VideoMedia }, 'polls'>(run, {
      count: checkpoint,
      key: 'polls',
      read: async () => {
        const status = await upload.processing();
        checkpoint.processing = { status: status.status, ...(status.percent !== undefined ? { percent: status.percent } : {}) };
        if (status.status === 'error') throw new MediaProcessingFailed(`The platform could not process the video: ${status.reason ?? 'no reason given'}`);
        return status.status === 'ready' ? { done: { media: { type: 'VIDEO', id: videoId, status: 'ready' } } } : { waiting: true };
      },
      delays: POLL_DELAYS_SECONDS,
      deadline: finishedAt + PROCESSING_LIMIT_MS,
      tooLong: () => new MediaProcessingFailed('The platform was still processing the video 30 minutes after it had every byte; upload it again later.'),
    });
  } catch (error) {
    throw upload.refusalOf(error);
  }
}

/**
 * A video at a URL, streamed into the bucket before anything goes to the platform; a run that dies
 * during it fetches the file again from its start (nothing was sent upstream yet). Its first bytes
 * are checked again: the URL may have changed since the call looked.
 */
async function stageFromUrl(run: JobRun, job: MediaJob, url: string): Promise<void> {
  run.checkTime();
  const key = stagedUploadKey(job.tenantId, job.userId, job.jobId, 'video');
  const deadline = run.context.getRemainingTimeInMillis();
  const staged = await stageVideoFromUrl(url, key, AbortSignal.timeout(Math.max(1, deadline - 10_000)));
  Object.assign(job.request, { objectKey: key, etag: staged.etag });
  job.progress.totalBytes = staged.contentLength;
  if ((await uploadedKind({ objectKey: key, etag: staged.etag, contentLength: staged.contentLength }))?.type !== 'VIDEO')
    throw new UnsupportedMedia('The file at the URL is no longer an MP4 or QuickTime video (its first bytes say so); nothing was sent.');
  await run.save();
}
