import { handlerBeside, type FunctionDeclaration } from '../../shared/core/function-declaration.ts';

export const declaration: FunctionDeclaration = {
  operation: 'backtest_rule',
  method: 'POST',
  path: '/optimize_me/backtest_rule',
  entry: handlerBeside(import.meta.url),
  // reads the rule's platform, whichever it is
  callsPlatforms: true,
};
