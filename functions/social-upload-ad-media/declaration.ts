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
  audit: {
    action: 'ad_media.uploaded',
    target: (_input, result) => ({ type: 'media', id: result?.media?.id ?? 'unknown' }),
    changes: (input) => ({ source: { to: input.uploadId ? 'upload' : 'url' } }),
  },
};
