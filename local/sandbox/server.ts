import { isUtf8 } from 'node:buffer';
import { createHash, randomUUID } from 'node:crypto';
import { storeRequestCounts } from '../store-requests.ts';
import { carries, RequestSearch } from './request-search.ts';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { clock } from '../../shared/core/clock.ts';
import { installedLocalClock } from '../clock.ts';
import { sampleMp4, samplePng } from './sample-media.ts';
import { keepIdleConnections } from '../keep-alive.ts';
import { isMultipart, readFormBody } from './multipart.ts';

/**
 * The scaffold every platform sandbox is built on: one HTTP server per platform that routes
 * requests to the platform's handlers, records every request it received (so tests assert what
 * went upstream), and injects faults on demand.
 *
 * Control endpoints (never part of a platform's API):
 *   POST   /__sandbox/faults    queue a fault: {status?, body?, headers?, delayMs?, answerDelayMs?, times?, pathIncludes?, kind?}
 *   DELETE /__sandbox/faults    clear queued faults
 *   DELETE /__sandbox/faults/{id}  withdraw one queued fault (a test's leftover, so it cannot refuse another test's request)
 *   GET    /__sandbox/requests  the recorded requests, oldest first (?includes=x: only those carrying x, as faults
 *                                match; ?from=n: from the n-th received on; ?count=1: only {count}, how many were received)
 *   DELETE /__sandbox/requests  forget them
 *   GET    /__sandbox/clock     the local stack's clock: {now} (epoch ms)
 *   POST   /__sandbox/campaigns add campaigns to an ad account for scale tests: {account, count} → {ids}
 *   POST   /__sandbox/clock     move it forward: {advanceMs}
 *   GET    /__sandbox/store-requests  the store requests the stack's functions made so far: {total, byOperation}
 */
export interface SandboxRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  /** the query string as it came, encoding and all (`?a=b`), for the checks that care how it was written */
  rawQuery: string;
  headers: Record<string, string>;
  body: Buffer;
  /** the body as JSON, or form fields (urlencoded or multipart), when it is either */
  fields: Record<string, unknown>;
  /** a multipart form's files, by field name */
  files?: Record<string, Buffer>;
}

export interface SandboxResponse {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** the body as sent, for non-JSON answers */
  raw?: Buffer | string;
}

export interface SandboxRoute {
  method: string;
  /** matched against the path; named groups become `params` */
  path: RegExp;
  handle: (request: SandboxRequest, params: Record<string, string>) => SandboxResponse | Promise<SandboxResponse>;
}

export interface Fault {
  kind?: 'status' | 'timeout' | 'malformed' | 'reset';
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
  delayMs?: number;
  /** the request is handled as usual, and its answer held back this long (the platform did the work; the client has not heard) */
  answerDelayMs?: number;
  /** given by the sandbox when the fault is queued */
  id?: string;
  /** how many matching requests it applies to (default 1) */
  times?: number;
  /** only requests whose path contains this */
  pathIncludes?: string;
  /** only requests of this method */
  method?: string;
  /** only requests whose query string, body or authorization header contains this, or each of these (a test user's token, say) */
  requestIncludes?: string | string[];
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  /** the query string as it came, encoding and all */
  rawQuery: string;
  headers: Record<string, string>;
  /** the body as text ('' when it is not text: see `binary`) */
  body: string;
  /** a multipart form's files: their size and SHA-256 */
  files?: Record<string, { bytes: number; sha256: string }>;
  /** a body that is not UTF-8 text (a video part, an image): its size and SHA-256 */
  binary?: { bytes: number; sha256: string };
}

const digestOf = (bytes: Buffer) => ({ bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') });
const filesOf = (files: Record<string, Buffer>) => Object.fromEntries(Object.entries(files).map(([name, bytes]) => [name, digestOf(bytes)]));

/** Adds `count` campaigns (ACTIVE, a daily budget of their own) to an ad account; answers their ids. */
export type SeedCampaigns = (account: string, count: number) => string[];

export interface Sandbox {
  name: string;
  url: string;
  server: Server;
  /** the last requests it received (at most MAX_RECORDED), oldest first */
  requests: RecordedRequest[];
  /** how many older ones were let go: request n (from 0, ever received) is requests[n - dropped] */
  dropped: number;
  faults: Fault[];
  close(): Promise<void>;
}

function parseFields(headers: Record<string, string>, body: Buffer): Record<string, unknown> {
  const type = headers['content-type'] ?? '';
  const text = body.toString('utf8');
  if (/json/i.test(type) && text.trim()) {
    try {
      const parsed: unknown = JSON.parse(text);
      return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : { $: parsed };
    } catch {
      return { $malformed: text };
    }
  }
  if (/x-www-form-urlencoded/i.test(type)) return Object.fromEntries(new URLSearchParams(text));
  return {};
}

function send(response: ServerResponse, answer: SandboxResponse): void {
  const raw = answer.raw ?? (answer.body === undefined ? '' : JSON.stringify(answer.body));
  const headers = { ...(answer.raw === undefined ? { 'content-type': 'application/json; charset=UTF-8' } : {}), ...answer.headers };
  response.writeHead(answer.status, headers);
  response.end(raw);
}

function takeFault(faults: Fault[], request: RecordedRequest): Fault | undefined {
  const index = faults.findIndex(
    (fault) =>
      (!fault.method || fault.method === request.method) &&
      (!fault.pathIncludes || request.path.includes(fault.pathIncludes)) &&
      [fault.requestIncludes ?? []].flat().every((part) => carries(request, part)),
  );
  if (index < 0) return undefined;
  const fault = faults[index] as Fault;
  const remaining = (fault.times ?? 1) - 1;
  if (remaining <= 0) faults.splice(index, 1);
  else faults[index] = { ...fault, times: remaining };
  return fault;
}

async function control(
  sandbox: Sandbox,
  search: RequestSearch,
  request: SandboxRequest,
  seedCampaigns?: SeedCampaigns,
  controls: SandboxRoute[] = [],
): Promise<SandboxResponse> {
  if (request.path === '/__sandbox/campaigns' && request.method === 'POST' && seedCampaigns) {
    const count = Number(request.fields.count);
    const account = String(request.fields.account ?? '');
    if (!/^[0-9]+$/.test(account) || !Number.isInteger(count) || count < 1 || count > 100_000)
      return { status: 400, body: { error: 'send {account (digits), count (1–100000)}' } };
    return { status: 201, body: { ids: seedCampaigns(account, count) } };
  }
  if (request.path === '/__sandbox/sample.png' && request.method === 'GET') {
    // a real image to upload from a URL (loopback http is allowed to the local stack)
    const width = Math.min(2000, Number(request.query.get('width') ?? 1200) || 1200);
    const height = Math.min(2000, Number(request.query.get('height') ?? 628) || 628);
    return { status: 200, raw: samplePng(width, height), headers: { 'content-type': 'image/png' } };
  }
  if (request.path === '/__sandbox/sample.mp4' && request.method === 'GET') {
    // a sample video file (MP4 by its first bytes) of the size asked, at most 64 MiB
    const bytes = Math.min(64 * 1024 * 1024, Math.max(1024, Number(request.query.get('bytes') ?? 3_000_000) || 3_000_000));
    return { status: 200, raw: sampleMp4(bytes), headers: { 'content-type': 'video/mp4' } };
  }
  if (request.path === '/__sandbox/faults' && request.method === 'POST') {
    const fault = { ...(request.fields as Fault), id: randomUUID() };
    sandbox.faults.push(fault);
    return { status: 201, body: { id: fault.id, queued: sandbox.faults.length } };
  }
  if (request.path.startsWith('/__sandbox/faults/') && request.method === 'DELETE') {
    const index = sandbox.faults.findIndex((fault) => fault.id === request.path.slice('/__sandbox/faults/'.length));
    if (index >= 0) sandbox.faults.splice(index, 1);
    return { status: 204 };
  }
  if (request.path === '/__sandbox/faults' && request.method === 'DELETE') {
    sandbox.faults.length = 0;
    return { status: 204 };
  }
  if (request.path === '/__sandbox/requests' && request.method === 'GET') {
    // a test reads only its own requests: the others may hold megabytes of audience batches
    if (request.query.get('count') === '1') return { status: 200, body: { count: sandbox.dropped + sandbox.requests.length } };
    const marker = request.query.get('includes');
    if (marker !== null) return { status: 200, body: search.carrying(sandbox.requests, marker) };
    // numbered as received, so `from` keeps its meaning once the oldest are let go
    return { status: 200, body: sandbox.requests.slice(Math.max(0, (Number(request.query.get('from') ?? 0) || 0) - sandbox.dropped)) };
  }
  if (request.path === '/__sandbox/requests' && request.method === 'DELETE') {
    sandbox.dropped += sandbox.requests.length;
    sandbox.requests.length = 0;
    search.forgetAll();
    return { status: 204 };
  }
  if (request.path === '/__sandbox/clock' && request.method === 'GET') return { status: 200, body: { now: clock.now() } };
  if (request.path === '/__sandbox/store-requests' && request.method === 'GET') return { status: 200, body: storeRequestCounts() };
  if (request.path === '/__sandbox/clock' && request.method === 'POST') {
    const advanceMs = Number(request.fields.advanceMs);
    const localClock = installedLocalClock();
    if (!localClock || !Number.isFinite(advanceMs) || advanceMs < 0) return { status: 400, body: { error: 'send {advanceMs} (≥ 0) to a local stack' } };
    localClock.advance(advanceMs);
    return { status: 200, body: { now: clock.now() } };
  }
  for (const route of controls) {
    const match = route.method === request.method ? route.path.exec(request.path) : null;
    if (match) return route.handle(request, match.groups ?? {});
  }
  return { status: 404, body: { error: 'unknown sandbox control endpoint' } };
}

const MAX_RECORDED = 10_000;

export async function startSandbox(
  name: string,
  routes: SandboxRoute[],
  notFound: (request: SandboxRequest) => SandboxResponse,
  port = 0,
  seedCampaigns?: SeedCampaigns,
  /** the platform's own control endpoints (under /__sandbox/): knobs for what it does next */
  controls: SandboxRoute[] = [],
): Promise<Sandbox> {
  const sandbox = { name, url: '', requests: [] as RecordedRequest[], dropped: 0, faults: [] as Fault[] } as Sandbox;
  const search = new RequestSearch();

  const handle = async (incoming: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const url = new URL(incoming.url ?? '/', 'http://sandbox');
    const headers = Object.fromEntries(Object.entries(incoming.headers).map(([key, value]) => [key, Array.isArray(value) ? value.join(',') : (value ?? '')]));
    const request: SandboxRequest = {
      method: incoming.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      rawQuery: url.search,
      headers,
      body,
      fields: parseFields(headers, body),
    };
    const form = isMultipart(headers) ? await readFormBody(headers, body) : undefined;
    if (form) Object.assign(request, { fields: form.fields, files: form.files });
    if (request.path.startsWith('/__sandbox/')) return send(response, await control(sandbox, search, request, seedCampaigns, controls));

    const recorded: RecordedRequest = {
      method: request.method,
      path: request.path,
      query: Object.fromEntries(url.searchParams),
      rawQuery: request.rawQuery,
      headers,
      // a form's text fields as a query string, its files and any other bytes that are not text by size and
      // digest (a video part is megabytes, and a test polling the requests would read them every time)
      body: form ? new URLSearchParams(form.fields).toString() : isUtf8(body) ? body.toString('utf8') : '',
      ...(form && Object.keys(form.files).length > 0 ? { files: filesOf(form.files) } : {}),
      ...(!form && !isUtf8(body) ? { binary: digestOf(body) } : {}),
    };
    if (sandbox.requests.length >= MAX_RECORDED) {
      sandbox.requests.shift();
      sandbox.dropped++;
    }
    sandbox.requests.push(recorded);
    search.recorded(recorded);

    const fault = takeFault(sandbox.faults, recorded);
    if (fault?.delayMs) await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
    if (fault?.kind === 'timeout') return; // never answers; the client's timeout fires
    if (fault?.kind === 'reset') return void response.socket?.destroy();
    if (fault?.kind === 'malformed') return send(response, { status: fault.status ?? 200, raw: '{"data": [', headers: { 'content-type': 'application/json' } });
    if (fault && fault.status !== undefined) return send(response, { status: fault.status, body: fault.body ?? {}, headers: fault.headers });

    for (const route of routes) {
      if (route.method !== request.method) continue;
      const match = route.path.exec(request.path);
      if (match) {
        const answer = await route.handle(request, match.groups ?? {});
        if (fault?.answerDelayMs) await new Promise((resolve) => setTimeout(resolve, fault.answerDelayMs));
        return send(response, answer);
      }
    }
    return send(response, notFound(request));
  };

  const server = createServer((incoming, response) => {
    handle(incoming, response).catch((error: unknown) => {
      if (!response.headersSent) send(response, { status: 500, body: { error: `sandbox failure: ${(error as Error).message}` } });
    });
  });
  keepIdleConnections(server);
  const listen = (on: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(on, '127.0.0.1', () => resolve());
    });
  // the port asked for (the one a sandbox had before a restart), or any when it is taken
  await listen(port).catch((error: NodeJS.ErrnoException) => {
    if (port === 0 || error.code !== 'EADDRINUSE') throw error;
    return listen(0);
  });
  sandbox.server = server;
  sandbox.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  sandbox.close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return sandbox;
}
