import { linkDigest } from '../../shared/connect/one-time-values.ts';
import { handlerBeside, type FunctionDeclaration } from '../../shared/core/function-declaration.ts';

export const declaration: FunctionDeclaration = {
  operation: 'create_link',
  method: 'POST',
  path: '/auth/create_link',
  entry: handlerBeside(import.meta.url),
  writes: true,
  audit: {
    action: 'connect_link.created',
    // the link's own id opens it: the event names its digest, the actor of the connection it makes
    target: (_input, result) => ({ type: 'connect_link', id: result ? linkDigest(result.link.slice(result.link.lastIndexOf('/') + 1)) : 'unknown' }),
    changes: (input) => ({ platform: { to: input.platform } }),
  },
};
