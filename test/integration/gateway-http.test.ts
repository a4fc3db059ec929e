import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { stack } from '../helpers/api.ts';

/** The local gateway over a raw socket, as a client that spells header names its own way. */
describe('local gateway over HTTP', () => {
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
