import { handlerBeside, type FunctionDeclaration } from '../../shared/core/function-declaration.ts';

export const declaration: FunctionDeclaration = {
  operation: 'create_user',
  method: 'POST',
  path: '/users/create_user',
  entry: handlerBeside(import.meta.url),
  writes: true,
  idempotent: true,
  sealsConnections: true,
};
