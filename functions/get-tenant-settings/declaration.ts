import { handlerBeside, type FunctionDeclaration } from '../../shared/core/function-declaration.ts';

export const declaration: FunctionDeclaration = {
  operation: 'get_settings',
  method: 'POST',
  path: '/tenant/get_settings',
  entry: handlerBeside(import.meta.url),
};
