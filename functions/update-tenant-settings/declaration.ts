import { handlerBeside, type FunctionDeclaration } from '../../shared/core/function-declaration.ts';

export const declaration: FunctionDeclaration = {
  operation: 'update_settings',
  method: 'POST',
  path: '/tenant/update_settings',
  entry: handlerBeside(import.meta.url),
  writes: true,
  sealsConnections: true,
};
