import { connect } from 'node:net';
import { Readable } from 'node:stream';
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { buildEvent } from '../../infra/local/gateway.ts';
import { fallbackRoute, findRoute, routes } from '../../shared/routes.ts';
import { stack } from '../helpers/api.ts';

function incoming(headers: Record<string, string | string[]>, url = '/users/get_profile?x=1'): IncomingMessage {
  return Object.assign(Readable.from([]), {
    headers,
    url,
    method: 'POST',
    httpVersion: '1.1',
    socket: { remoteAddress: '127.0.0.1' },
  }) as unknown as IncomingMessage;
}

describe('local gateway: payload format 2.0 events', () => {
  it('passes JSON as text with lowercased headers', () => {
    const event = buildEvent(incoming({ 'content-type': 'application/json', 'x-api-key': 'k', accept: ['a', 'b'] }), Buffer.from('{"a":1}'), 'POST /users/get_profile');
    expect(event.version).toBe('2.0');
    expect(event.isBase64Encoded).toBe(false);
    expect(event.body).toBe('{"a":1}');
    expect(event.headers).toMatchObject({ 'content-type': 'application/json', 'x-api-key': 'k', accept: 'a,b' });
    expect(event.rawPath).toBe('/users/get_profile');
    expect(event.rawQueryString).toBe('x=1');
    expect(event.requestContext.http.method).toBe('POST');
    expect(event.requestContext.requestId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('base64-encodes multipart and binary bodies', () => {
    const multipart = Buffer.from('--b\r\nContent-Disposition: form-data; name="userId"\r\n\r\nu\r\n--b--\r\n');
    const event = buildEvent(incoming({ 'content-type': 'multipart/form-data; boundary=b' }), multipart, 'POST /x');
    expect(event.isBase64Encoded).toBe(true);
    expect(Buffer.from(event.body as string, 'base64').equals(multipart)).toBe(true);
    const binary = buildEvent(incoming({ 'content-type': 'application/octet-stream' }), Buffer.from([0, 255, 1]), 'POST /x');
    expect(binary.isBase64Encoded).toBe(true);
    expect(binary.body).toBe('AP8B');
  });

  it('routes from the one route table, with the fallback for everything else', () => {
    for (const route of routes) expect(findRoute(route.method, route.path).route).toBe(route);
    expect(findRoute('GET', '/users/get_profile')).toEqual({ route: undefined, allowed: ['POST'] });
    expect(findRoute('POST', '/nope')).toEqual({ route: undefined, allowed: [] });
    expect(fallbackRoute.entry).toBe('functions/route-not-found.ts');
  });

  it('takes header names in any case on the wire and answers with the names the handler set', async () => {
    // a raw request: fetch's Headers would lowercase the names before they left this process
    const body = JSON.stringify({ userId: 'demo-user' });
    const raw = await rawExchange(
      [
        'POST /users/get_profile HTTP/1.1',
        `Host: ${new URL(stack().url).host}`,
        `X-API-Key: ${stack().apiKey}`,
        'CONTENT-TYPE: Application/JSON',
        `Content-Length: ${Buffer.byteLength(body)}`,
        'Connection: close',
        '',
        body,
      ].join('\r\n'),
    );
    const [head = '', responseBody = ''] = raw.split('\r\n\r\n');
    const [statusLine, ...headerLines] = head.split('\r\n');
    expect(statusLine).toBe('HTTP/1.1 200 OK');
    const names = headerLines.map((line) => line.slice(0, line.indexOf(':')));
    expect(names).toContain('content-type');
    expect(names).toContain('x-request-id');
    expect(headerLines).toContain('content-type: application/json; charset=utf-8');
    expect(JSON.parse(dechunk(responseBody))).toMatchObject({ success: true, results: { user: { userId: 'demo-user' } } });
  });
});

/** Writes `request` as it is to the test stack's gateway and reads the whole answer. */
function rawExchange(request: string): Promise<string> {
  const { hostname, port } = new URL(stack().url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(request)); // `Connection: close` ends it
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.on('error', reject);
  });
}

/** A chunked HTTP/1.1 body as one string (the sizes count bytes; the test's bodies are ASCII). */
function dechunk(body: string): string {
  let text = '';
  for (let rest = body; ; ) {
    const lineEnd = rest.indexOf('\r\n');
    const size = Number.parseInt(rest.slice(0, lineEnd), 16);
    if (!size) return text;
    text += rest.slice(lineEnd + 2, lineEnd + 2 + size);
    rest = rest.slice(lineEnd + 2 + size + 2);
  }
}
