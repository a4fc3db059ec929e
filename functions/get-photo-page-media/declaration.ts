import { handlerBeside, type FunctionDeclaration } from '../../shared/core/function-declaration.ts';

export const declaration: FunctionDeclaration = {
  operation: 'get_photo_page_media',
  method: 'POST',
  path: '/social/get_photo_page_media',
  entry: handlerBeside(import.meta.url),
  platform: 'social',
  writes: true,
};
