import { handlerBeside, type FunctionDeclaration } from '../../shared/core/function-declaration.ts';

export const declaration: FunctionDeclaration = {
  operation: 'get_api_reference',
  method: 'GET',
  path: '/docs',
  entry: handlerBeside(import.meta.url),
  public: true,
};
