import { handlerBeside, type FunctionDeclaration } from '../../shared/core/function-declaration.ts';
import { CONNECT_ROUTE_THROTTLE } from '../../shared/connect/throttle.ts';

export const declaration: FunctionDeclaration = {
  operation: 'show_account_picker',
  method: 'GET',
  path: '/auth/select/{attemptId}',
  entry: handlerBeside(import.meta.url),
  browser: CONNECT_ROUTE_THROTTLE,
  // opens the sealed grant to list its accounts
  sealsConnections: true,
};
