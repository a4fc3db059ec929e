import { handlerBeside, type FunctionDeclaration } from '../../shared/core/function-declaration.ts';

export const declaration: FunctionDeclaration = {
  operation: 'get_search_ads_result',
  method: 'POST',
  path: '/searchads/get_search_ads_result',
  entry: handlerBeside(import.meta.url),
  platform: 'searchads',
};
