import { AD_MEDIA_FUNCTION, handlerBeside, type FunctionDeclaration } from '../../shared/core/function-declaration.ts';

export const declaration: FunctionDeclaration = {
  operation: 'social_upload_ad_media',
  method: 'POST',
  path: '/social/upload_ad_media',
  entry: handlerBeside(import.meta.url),
  platform: 'social',
  ...AD_MEDIA_FUNCTION,
};
