import { handlerBeside, type FunctionDeclaration } from '../../shared/core/function-declaration.ts';
import { CONNECT_ROUTE_THROTTLE } from '../../shared/connect/throttle.ts';

export const declaration: FunctionDeclaration = {
  operation: 'connect_callback',
  method: 'GET',
  path: '/auth/callback/{platform}',
  entry: handlerBeside(import.meta.url),
  browser: CONNECT_ROUTE_THROTTLE,
  callsPlatforms: true,
};
