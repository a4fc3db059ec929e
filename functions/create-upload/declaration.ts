import { handlerBeside, type FunctionDeclaration } from '../../shared/core/function-declaration.ts';

export const declaration: FunctionDeclaration = {
  operation: 'create_upload',
  method: 'POST',
  path: '/uploads/create_upload',
  entry: handlerBeside(import.meta.url),
  usesUploadBucket: true, // signs PUTs under the upload prefix
  writes: true,
  audit: { action: 'upload.created', target: (_input, result) => ({ type: 'upload', id: result?.uploadId ?? 'unknown' }) },
};
