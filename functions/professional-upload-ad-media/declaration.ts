import { AD_MEDIA_FUNCTION, handlerBeside, type FunctionDeclaration } from '../../shared/core/function-declaration.ts';

export const declaration: FunctionDeclaration = {
  operation: 'professional_upload_ad_media',
  method: 'POST',
  path: '/professional/upload_ad_media',
  entry: handlerBeside(import.meta.url),
  platform: 'professional',
  ...AD_MEDIA_FUNCTION,
};
