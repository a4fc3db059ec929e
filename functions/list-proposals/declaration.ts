import { handlerBeside, type FunctionDeclaration } from '../../shared/core/function-declaration.ts';

export const declaration: FunctionDeclaration = {
  operation: 'list_proposals',
  method: 'POST',
  path: '/optimize_me/list_proposals',
  entry: handlerBeside(import.meta.url),
};
