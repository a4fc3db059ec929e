import { handlerBeside, type FunctionDeclaration } from '../../shared/core/function-declaration.ts';

export const declaration: FunctionDeclaration = {
  operation: 'get_profile',
  method: 'POST',
  path: '/users/get_profile',
  entry: handlerBeside(import.meta.url),
};
