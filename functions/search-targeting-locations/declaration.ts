import { handlerBeside, type FunctionDeclaration } from '../../shared/core/function-declaration.ts';

export const declaration: FunctionDeclaration = {
  operation: 'search_targeting_locations',
  method: 'POST',
  path: '/social/search_targeting_locations',
  entry: handlerBeside(import.meta.url),
  platform: 'social',
};
