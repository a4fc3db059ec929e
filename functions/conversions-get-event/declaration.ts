import { handlerBeside, type FunctionDeclaration } from '../../shared/core/function-declaration.ts';

export const declaration: FunctionDeclaration = {
  operation: 'get_conversion_event',
  method: 'POST',
  path: '/conversions/get_event',
  entry: handlerBeside(import.meta.url),
};
