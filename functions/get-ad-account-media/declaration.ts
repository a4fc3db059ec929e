import { handlerBeside, type FunctionDeclaration } from '../../shared/core/function-declaration.ts';

export const declaration: FunctionDeclaration = {
  operation: 'get_ad_account_media',
  method: 'POST',
  path: '/social/get_ad_account_media',
  entry: handlerBeside(import.meta.url),
  platform: 'social',
};
