import { handlerBeside, type FunctionDeclaration } from '../../shared/core/function-declaration.ts';

export const declaration: FunctionDeclaration = {
  operation: 'get_conversion_stages',
  method: 'POST',
  path: '/conversions/get_stages',
  entry: handlerBeside(import.meta.url),
};
