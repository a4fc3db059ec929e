import { handlerBeside, type FunctionDeclaration } from '../../shared/core/function-declaration.ts';

export const declaration: FunctionDeclaration = {
  operation: 'get_campaign_optimization_history',
  method: 'POST',
  path: '/optimize_me/get_campaign_optimization_history',
  entry: handlerBeside(import.meta.url),
};
