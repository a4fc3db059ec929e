import { handlerBeside, type FunctionDeclaration } from '../../shared/core/function-declaration.ts';

export const declaration: FunctionDeclaration = {
  operation: 'social_upload_ad_media',
  method: 'POST',
  path: '/social/upload_ad_media',
  entry: handlerBeside(import.meta.url),
  platform: 'social',
  usesUploadBucket: true, // reads the user's uploaded file
  writes: true, // the upload keeps what the platform made of it
  idempotent: true,
  sendsTo: ['AudienceJobs'], // a video goes to the job worker
  audit: {
    // an image goes in at once; a video starts a job, whose end records ad_media.uploaded
    action: (_input, result) => (result?.jobId ? 'ad_media_job.started' : 'ad_media.uploaded'),
    target: (_input, result) => (result?.jobId ? { type: 'ad_media_job', id: result.jobId } : { type: 'media', id: result?.media?.id ?? 'unknown' }),
    changes: (input) => ({ source: { to: input.uploadId ? 'upload' : 'url' } }),
  },
};
