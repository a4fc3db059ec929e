import { handlerBeside, type FunctionDeclaration } from '../../shared/core/function-declaration.ts';

export const declaration: FunctionDeclaration = {
  operation: 'disconnect',
  method: 'POST',
  path: '/users/disconnect',
  entry: handlerBeside(import.meta.url),
  destructive: true,
  unchangedByRepeat: true,
  // revokes a grant made through a connect link upstream, on whichever platform it is
  callsPlatforms: true,
  audit: {
    action: 'connection.disconnected',
    target: (input) => ({ type: 'connection', id: input.platform }),
    changes: () => ({ status: { to: 'disconnected' } }),
  },
};
