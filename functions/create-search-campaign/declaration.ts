import { handlerBeside, type FunctionDeclaration } from '../../shared/core/function-declaration.ts';

export const declaration: FunctionDeclaration = {
  operation: 'create_search_campaign',
  method: 'POST',
  path: '/searchads/create_search_campaign',
  entry: handlerBeside(import.meta.url),
  platform: 'searchads',
  writes: true,
  idempotent: true,
  memoryMb: 512,
};
