import { handlerBeside, type FunctionDeclaration } from '../shared/function-declaration.ts';

export const declaration: FunctionDeclaration = {
  operation: 'get_openapi_document',
  method: 'GET',
  path: '/openapi.json',
  entry: handlerBeside(import.meta.url),
  public: true,
};
