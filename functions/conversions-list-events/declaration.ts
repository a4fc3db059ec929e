import { handlerBeside, type FunctionDeclaration } from '../../shared/core/function-declaration.ts';

export const declaration: FunctionDeclaration = {
  operation: 'list_conversion_events',
  method: 'POST',
  path: '/conversions/list_events',
  entry: handlerBeside(import.meta.url),
};
