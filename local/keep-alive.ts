import type { Server } from 'node:http';

/**
 * Node's servers close an idle keep-alive connection after 5 s, and a client that reuses it in the same
 * moment sees "other side closed" for a request the server never read. A real upstream keeps idle
 * connections about a minute, so the local stack's servers do too; the clients' pools (which take the
 * server's Keep-Alive hint, less a margin) then always let a connection go before the server does.
 */
export const IDLE_CONNECTION_MS = 65_000;

export function keepIdleConnections<S extends Server>(server: S): S {
  server.keepAliveTimeout = IDLE_CONNECTION_MS;
  server.headersTimeout = IDLE_CONNECTION_MS + 1_000;
  return server;
}
