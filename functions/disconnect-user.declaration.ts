import { handlerBeside, type FunctionDeclaration } from '../shared/function-declaration.ts';

export const declaration: FunctionDeclaration = {
  operation: 'disconnect',
  method: 'POST',
  path: '/users/disconnect',
  entry: handlerBeside(import.meta.url),
  writes: true,
  sendsTo: ['WebhookDeliveries'],
};
