import { handlerBeside, type FunctionDeclaration } from '../../shared/core/function-declaration.ts';

export const declaration: FunctionDeclaration = {
  operation: 'list_rules',
  method: 'POST',
  path: '/optimize_me/list_rules',
  entry: handlerBeside(import.meta.url),
};
