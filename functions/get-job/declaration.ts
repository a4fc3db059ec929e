import { handlerBeside, type FunctionDeclaration } from '../../shared/core/function-declaration.ts';

export const declaration: FunctionDeclaration = {
  operation: 'get_job',
  method: 'POST',
  path: '/jobs/get_job',
  entry: handlerBeside(import.meta.url),
};
