import { handlerBeside, type FunctionDeclaration } from '../../shared/core/function-declaration.ts';

export const declaration: FunctionDeclaration = {
  operation: 'create_user',
  method: 'POST',
  path: '/users/create_user',
  entry: handlerBeside(import.meta.url),
  writes: true,
  idempotent: true,
  sealsConnections: true,
  audit: {
    action: 'user.created',
    target: (input, result) => ({ type: 'user', id: result?.userId ?? input.userId }),
    // which platforms were connected with the user's own tokens: names only, never a token
    changes: (input) => (input.connections ? { connections: { to: Object.keys(input.connections).sort() } } : undefined),
  },
};
