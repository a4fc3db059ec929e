import { handlerBeside, type FunctionDeclaration } from '../../shared/core/function-declaration.ts';
import { CONNECT_ROUTE_THROTTLE } from '../../shared/connect/throttle.ts';

export const declaration: FunctionDeclaration = {
  operation: 'connect_start',
  method: 'GET',
  path: '/auth/connect/{linkId}',
  entry: handlerBeside(import.meta.url),
  browser: CONNECT_ROUTE_THROTTLE,
  writes: true,
  // the PKCE verifier is kept sealed; the consent URL carries our app's client id
  sealsConnections: true,
  readsAppCredentials: true,
};
