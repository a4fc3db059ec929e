import { Readable } from 'node:stream';
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { buildEvent } from '../../local/gateway.ts';
import { existsSync, readdirSync } from 'node:fs';
import { fallbackRoute, findRoute, routes } from '../../functions/routes.ts';
import { workers } from '../../functions/workers/index.ts';
import { decodeRouteTable, encodeRouteTable } from '../../shared/http/route-table.ts';

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
    const event = buildEvent(
      incoming({ 'content-type': 'application/json', 'x-api-key': 'k', accept: ['a', 'b'] }),
      Buffer.from('{"a":1}'),
      'POST /users/get_profile',
    );
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
    expect(fallbackRoute.entry).toBe('functions/route-not-found/handler.ts');
  });

  it('has one route per operation folder and one folder per route: a folder is all an operation needs', () => {
    const folders = readdirSync(new URL('../../functions/', import.meta.url), { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && existsSync(new URL(`../../functions/${entry.name}/declaration.ts`, import.meta.url)))
      .map((entry) => entry.name)
      .filter((name) => name !== 'route-not-found');
    expect(routes.map((route) => route.entry).sort()).toEqual(folders.map((name) => `functions/${name}/handler.ts`).sort());
    for (const route of routes) expect(existsSync(new URL(`../../${route.entry}`, import.meta.url)), route.entry).toBe(true);
    // the catch-all function answers 405 from the table as configuration, never from a list of its own
    expect(decodeRouteTable(encodeRouteTable(routes))).toEqual(routes.map(({ method, path }) => ({ method, path })));
  });

  it('finds the workers in their folders the same way', () => {
    const folders = readdirSync(new URL('../../functions/workers/', import.meta.url), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(workers.map((worker) => worker.entry).sort()).toEqual(folders.map((name) => `functions/workers/${name}/handler.ts`).sort());
  });
});
