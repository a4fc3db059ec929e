import { handlerBeside, type FunctionDeclaration } from '../../shared/core/function-declaration.ts';

export const declaration: FunctionDeclaration = {
  operation: 'list_rule_runs',
  method: 'POST',
  path: '/optimize_me/list_rule_runs',
  entry: handlerBeside(import.meta.url),
};
