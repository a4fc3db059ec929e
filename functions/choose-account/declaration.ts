import { handlerBeside, type FunctionDeclaration } from '../../shared/core/function-declaration.ts';
import { CONNECT_ROUTE_THROTTLE } from '../../shared/connect/throttle.ts';

export const declaration: FunctionDeclaration = {
  operation: 'choose_account',
  method: 'POST',
  path: '/auth/select/{attemptId}',
  entry: handlerBeside(import.meta.url),
  browser: CONNECT_ROUTE_THROTTLE,
  writes: true,
  sealsConnections: true,
  sendsTo: ['WebhookDeliveries'],
};
