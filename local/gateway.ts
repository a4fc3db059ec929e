import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { clock } from '../shared/core/clock.ts';
import { tooLargeForARequest } from '../shared/http/middleware/multipart-body.ts';
import { fallbackRoute, findRoute, type Route } from '../functions/routes.ts';
import { prepareBundledFiles } from './generated-files.ts';
import { importModule } from '../shared/core/import-module.ts';
import { keepIdleConnections } from './keep-alive.ts';
import { asFunctionRun } from './clock.ts';

/**
 * A local stand-in for API Gateway (HTTP API, payload format 2.0) in front of the same handler
 * exports that Lambda runs: lowercased headers, base64 bodies for binary and multipart content,
 * Lambda's 6 MB request payload limit, the catch-all route for 404 and 405.
 */
export const LAMBDA_PAYLOAD_LIMIT_BYTES = 6 * 1024 * 1024;
/** API Gateway's own body limit; reading stops beyond it */
const GATEWAY_BODY_LIMIT_BYTES = 10 * 1024 * 1024;
const DEFAULT_TIMEOUT_SECONDS = 29;

type LambdaHandler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;

const projectRoot = fileURLToPath(new URL('../', import.meta.url));
const handlers = new Map<string, Promise<LambdaHandler>>();

function loadHandler(route: Pick<Route, 'entry' | 'bundledFiles'>): Promise<LambdaHandler> {
  let loaded = handlers.get(route.entry);
  if (!loaded) {
    loaded = prepareBundledFiles(route)
      .then(() => importModule<{ handler: LambdaHandler }>(pathToFileURL(`${projectRoot}${route.entry}`).href))
      .then((module: { handler: LambdaHandler }) => module.handler);
    loaded.catch(() => handlers.delete(route.entry));
    handlers.set(route.entry, loaded);
  }
  return loaded;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** API Gateway's `requestContext.time`: `22/Nov/2026:10:00:00 +0000`. */
export function requestTime(date: Date): string {
  const hms = date.toISOString().slice(11, 19);
  return `${String(date.getUTCDate()).padStart(2, '0')}/${MONTHS[date.getUTCMonth()]}/${date.getUTCFullYear()}:${hms} +0000`;
}

const TEXT_TYPES = /^(text\/|application\/(?:[\w.+-]+\+)?(?:json|xml)|application\/x-www-form-urlencoded|application\/javascript)/i;

export function buildEvent(request: IncomingMessage, body: Buffer, routeKey: string, pathParameters?: Record<string, string>): APIGatewayProxyEventV2 {
  const url = new URL(request.url ?? '/', 'http://localhost');
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined || name === 'cookie') continue;
    headers[name.toLowerCase()] = Array.isArray(value) ? value.join(',') : value;
  }
  const contentType = headers['content-type'] ?? '';
  const asText = body.length === 0 || TEXT_TYPES.test(contentType);
  const now = clock.date();
  const queryStringParameters = url.search ? Object.fromEntries(url.searchParams) : undefined;
  return {
    version: '2.0',
    routeKey,
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    ...(request.headers.cookie ? { cookies: request.headers.cookie.split(/;\s*/) } : {}),
    headers,
    ...(queryStringParameters ? { queryStringParameters } : {}),
    ...(pathParameters ? { pathParameters } : {}),
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      domainName: headers.host ?? 'localhost',
      domainPrefix: 'local',
      http: {
        method: request.method ?? 'GET',
        path: url.pathname,
        protocol: `HTTP/${request.httpVersion}`,
        sourceIp: request.socket.remoteAddress ?? '127.0.0.1',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: randomUUID(),
      routeKey,
      stage: '$default',
      time: requestTime(now),
      timeEpoch: now.getTime(),
    },
    ...(body.length > 0 ? { body: asText ? body.toString('utf8') : body.toString('base64') } : {}),
    isBase64Encoded: !asText,
  };
}

function lambdaContext(functionName: string, timeoutSeconds: number): Context {
  const deadline = Date.now() + timeoutSeconds * 1000;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: '1024',
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

function sendEnvelope(response: ServerResponse, status: number, code: string, error: string): void {
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-store',
    'x-request-id': randomUUID(),
    // a refused body is not read to its end: the connection cannot carry another request
    ...(status === 413 ? { connection: 'close' } : {}),
  });
  response.end(JSON.stringify({ success: false, results: { success: false, error, code } }));
}

/** The body, or undefined as soon as it passes the gateway's limit; what comes after is read and dropped. */
function readBody(request: IncomingMessage): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      if (size > GATEWAY_BODY_LIMIT_BYTES) return;
      size += chunk.length;
      if (size <= GATEWAY_BODY_LIMIT_BYTES) chunks.push(chunk);
      else {
        chunks.length = 0;
        resolve(undefined);
      }
    });
    request.once('end', () => resolve(Buffer.concat(chunks)));
    request.once('error', reject);
  });
}

/** how long a refused upload's connection stays open for the client to finish sending */
const LINGER_MS = 5_000;

/**
 * The connection of a refused body closes once the client has sent the rest, or after LINGER_MS.
 * Closing it while the client's bytes still arrive makes the kernel reset it, and a client still writing
 * then fails with EPIPE before it reads our 413 (nginx's lingering close and Go's net/http wait likewise).
 */
function lingerBeforeClosing(response: ServerResponse): void {
  const socket = response.socket;
  if (!socket) return;
  // Node's server calls this once a `connection: close` answer is written: half-close, then wait for the client's end
  socket.destroySoon = () => {
    socket.end();
    const timer = setTimeout(() => socket.destroy(), LINGER_MS).unref();
    socket.once('close', () => clearTimeout(timer));
  };
}

async function invoke(route: Pick<Route, 'operation' | 'entry' | 'timeoutSeconds' | 'bundledFiles'>, event: APIGatewayProxyEventV2) {
  const handler = await loadHandler(route);
  const timeoutSeconds = route.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), timeoutSeconds * 1000);
  });
  try {
    return await Promise.race([asFunctionRun(() => handler(event, lambdaContext(route.operation, timeoutSeconds))), timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

async function serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const body = await readBody(request);
  if (!body) {
    lingerBeforeClosing(response);
    return sendEnvelope(
      response,
      413,
      'PAYLOAD_TOO_LARGE',
      'The request body is larger than the gateway accepts (10 MB). Send a contact list of any size with /uploads/create_upload, then its uploadId.',
    );
  }
  const path = new URL(request.url ?? '/', 'http://localhost').pathname;
  const method = request.method ?? 'GET';
  const { route, pathParameters } = findRoute(method, path);
  const event = buildEvent(request, body, route ? `${route.method} ${route.path}` : '$default', pathParameters);
  if (Buffer.byteLength(JSON.stringify(event)) > LAMBDA_PAYLOAD_LIMIT_BYTES) {
    return sendEnvelope(response, 413, 'PAYLOAD_TOO_LARGE', tooLargeForARequest(request.headers['content-type']));
  }
  const result = await invoke(route ?? fallbackRoute, event);
  if (!result) return sendEnvelope(response, 500, 'INTERNAL', 'The operation did not finish in time.');
  const headers: Record<string, string | string[]> = Object.fromEntries(Object.entries(result.headers ?? {}).map(([name, value]) => [name, String(value)]));
  // payload 2.0: `cookies` become Set-Cookie headers
  if (result.cookies?.length) headers['set-cookie'] = result.cookies;
  const payload = result.body === undefined ? '' : result.isBase64Encoded ? Buffer.from(result.body, 'base64') : result.body;
  response.writeHead(result.statusCode ?? 200, headers);
  response.end(payload);
}

export interface Gateway {
  server: Server;
  url: string;
  /** from now on requests are served; one that came before waited for this */
  open(): void;
  close(): Promise<void>;
}

/**
 * The gateway listens at once (links and callbacks are built on its URL) but holds every request until
 * `open()`: the stack opens it once the demo tenant exists, so a client polling from the first second
 * never meets a key the store does not know yet.
 */
export async function startGateway(port: number, host = '127.0.0.1'): Promise<Gateway> {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  const server = createServer((request, response) => {
    opened
      .then(() => serve(request, response))
      .catch((error: unknown) => {
        console.error(
          JSON.stringify({
            level: 'ERROR',
            message: 'gateway failure',
            error: (error as Error).name,
            stack: (error as Error).stack?.split('\n').slice(0, 6).join(' | '),
          }),
        );
        if (!response.headersSent) sendEnvelope(response, 500, 'INTERNAL', 'An internal error occurred.');
        else response.destroy();
      });
  });
  server.keepAliveTimeout = 5_000;
  keepIdleConnections(server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const { port: boundPort } = server.address() as AddressInfo;
  return {
    server,
    url: `http://${host}:${boundPort}`,
    open,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
