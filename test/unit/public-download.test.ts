import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAllowedAddress, isPublicAddress, parseNetworks } from '../../shared/core/addresses.ts';
import { DownloadRefused, downloadPublicUrl } from '../../shared/net/public-download.ts';

/** Image URLs from clients are fetched only from the public internet, with a size cap. */
let server: Server;
let base: string;
const received: string[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    received.push(request.url ?? '');
    if (request.url === '/image') return response.end(Buffer.alloc(1000, 1));
    if (request.url === '/big') return response.end(Buffer.alloc(2_000_000, 1));
    if (request.url?.startsWith('/hop/')) {
      const left = Number(request.url.slice(5));
      response.writeHead(302, { location: left > 0 ? `/hop/${left - 1}` : '/image' });
      return response.end();
    }
    if (request.url === '/to-file') {
      response.writeHead(302, { location: 'file:///etc/passwd' });
      return response.end();
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const LOOPBACK = parseNetworks(['127.0.0.0/8', '::1/128']);
const options = (allowLoopback: boolean) => ({
  maxBytes: 1_000_000,
  signal: AbortSignal.timeout(5_000),
  ...(allowLoopback ? { allowedNetworks: LOOPBACK } : {}),
});
const reason = (promise: Promise<unknown>) =>
  promise.then(
    () => 'downloaded',
    (error: unknown) => (error instanceof DownloadRefused ? error.reason : String(error)),
  );

describe('isPublicAddress', () => {
  it.each([
    ['127.0.0.1', false],
    ['10.1.2.3', false],
    ['172.16.0.1', false],
    ['172.31.255.255', false],
    ['192.168.1.10', false],
    ['169.254.169.254', false],
    ['100.64.0.1', false],
    ['0.0.0.0', false],
    ['224.0.0.1', false],
    ['::1', false],
    ['::', false],
    ['fe80::1', false],
    ['fd00::1', false],
    ['::ffff:127.0.0.1', false],
    ['::ffff:10.0.0.1', false],
    ['not an address', false],
    ['172.32.0.1', true],
    ['8.8.8.8', true],
    ['::ffff:8.8.8.8', true],
    ['2606:4700:4700::1111', true],
  ])('%s → %s', (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });
});

describe('networks allowed by configuration', () => {
  it('admit only the named networks, and a malformed CIDR is refused', () => {
    expect(isAllowedAddress('127.0.0.1', LOOPBACK)).toBe(true);
    expect(isAllowedAddress('::1', LOOPBACK)).toBe(true);
    expect(isAllowedAddress('10.0.0.1', LOOPBACK)).toBe(false);
    expect(isAllowedAddress('169.254.169.254', LOOPBACK)).toBe(false);
    expect(isAllowedAddress('127.0.0.1')).toBe(false);
    expect(() => parseNetworks(['127.0.0.1'])).toThrow(/not a CIDR/);
    expect(() => parseNetworks(['localhost/8'])).toThrow(/not a CIDR/);
  });
});

describe('downloadPublicUrl', () => {
  it('refuses a loopback address without sending anything', async () => {
    received.length = 0;
    expect(await reason(downloadPublicUrl(`${base}/image`, options(false)))).toBe('not-public');
    expect(await reason(downloadPublicUrl(`http://[::1]:1/image`, options(false)))).toBe('not-public');
    expect(await reason(downloadPublicUrl('http://169.254.169.254/latest/meta-data/', options(false)))).toBe('not-public');
    expect(await reason(downloadPublicUrl(`${base.replace('127.0.0.1', '[::ffff:127.0.0.1]')}/image`, options(false)))).toBe('not-public');
    expect(await reason(downloadPublicUrl(`${base.replace('127.0.0.1', '2130706433')}/image`, options(false)))).toBe('not-public');
    expect(received).toEqual([]);
  });

  it('refuses a host name that resolves to a loopback address, at connect time', async () => {
    received.length = 0;
    expect(await reason(downloadPublicUrl(`${base.replace('127.0.0.1', 'localhost')}/image`, options(false)))).toBe('not-public');
    expect(received).toEqual([]);
  });

  it('with loopback allowed, still refuses the metadata service and private networks', async () => {
    expect(await reason(downloadPublicUrl('http://169.254.169.254/latest/meta-data/', options(true)))).toBe('not-public');
    expect(await reason(downloadPublicUrl('http://10.1.2.3/image', options(true)))).toBe('not-public');
  });

  it('downloads from an allowed address, following redirects up to the limit', async () => {
    expect((await downloadPublicUrl(`${base}/image`, options(true))).length).toBe(1000);
    expect((await downloadPublicUrl(`${base}/hop/2`, options(true))).length).toBe(1000);
    expect(await reason(downloadPublicUrl(`${base}/hop/5`, options(true)))).toBe('too-many-redirects');
  });

  it('calls a public host over https only: plain http to a public address is refused before anything is sent, with or without allowed networks', async () => {
    for (const allow of [false, true]) {
      expect(await reason(downloadPublicUrl('http://8.8.8.8/image.png', options(allow)))).toBe('not-https');
      expect(await reason(downloadPublicUrl('http://[2606:4700:4700::1111]/image.png', options(allow)))).toBe('not-https');
    }
  });

  it('refuses a redirect to anything but http(s), a body over the cap and an error status', async () => {
    expect(await reason(downloadPublicUrl(`${base}/to-file`, options(true)))).toBe('unreachable');
    expect(await reason(downloadPublicUrl(`${base}/big`, options(true)))).toBe('too-large');
    const missing = await downloadPublicUrl(`${base}/missing`, options(true)).catch((error: DownloadRefused) => error);
    expect(missing).toMatchObject({ reason: 'unreachable', status: 404 });
  });
});
