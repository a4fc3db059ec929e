import { handlerBeside, type FunctionDeclaration } from '../../shared/core/function-declaration.ts';

export const declaration: FunctionDeclaration = {
  operation: 'get_campaigns_list',
  method: 'POST',
  path: '/social/get_campaigns_list',
  entry: handlerBeside(import.meta.url),
  platform: 'social',
};
