import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { keepIdleConnections } from '../../local/keep-alive.ts';

export interface ScriptedAnswer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** never answer (the client's timeout is what ends the exchange) */
  hang?: boolean;
}

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A loopback HTTP server that answers from a script, then with `fallback`, and records what it received. */
export async function scriptedServer(fallback: () => ScriptedAnswer): Promise<{
  url: string;
  answers: ScriptedAnswer[];
  received: ReceivedRequest[];
  close: () => Promise<void>;
}> {
  const answers: ScriptedAnswer[] = [];
  const received: ReceivedRequest[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      // decoded whole: a character may straddle two chunks
      received.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      const answer = answers.shift() ?? fallback();
      if (answer.hang) return;
      response
        .writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers })
        .end(answer.body === undefined ? '' : JSON.stringify(answer.body));
    });
  });
  keepIdleConnections(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    answers,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The webhook events a receiver got, as a Standard Webhooks receiver keeps them: one per `webhook-id`.
 * Delivery is at least once: an attempt that outlives the tests' 1-s webhook timeout on a busy machine
 * is sent again, the same event.
 */
export function webhookEvents(received: readonly ReceivedRequest[]): any[] {
  return [...new Map(received.map((request) => [String(request.headers['webhook-id']), JSON.parse(request.body)])).values()];
}
