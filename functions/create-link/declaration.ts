import { handlerBeside, type FunctionDeclaration } from '../../shared/core/function-declaration.ts';

export const declaration: FunctionDeclaration = {
  operation: 'create_link',
  method: 'POST',
  path: '/auth/create_link',
  entry: handlerBeside(import.meta.url),
  writes: true,
};
