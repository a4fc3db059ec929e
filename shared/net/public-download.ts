import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP } from 'node:net';

/**
 * Downloads a URL a client gave us (an image to upload) without letting it reach anything but the
 * public internet: every address the host resolves to, at connect time and after each redirect, must
 * be public (no loopback, private, link-local or cloud-metadata address), so a request cannot be
 * turned against our own network. The size is capped while streaming.
 */
export type DownloadFailure = 'not-public' | 'too-large' | 'unreachable' | 'too-many-redirects';

export class DownloadRefused extends Error {
  constructor(
    readonly reason: DownloadFailure,
    readonly status?: number,
  ) {
    super(reason);
  }
}

const NOT_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 3],
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 127],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv6');
}

export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  if (family === 6) {
    // an IPv4-mapped address is judged as the IPv4 address it carries (BlockList itself would match
    // a ::ffff:0:0/96 rule against every IPv4 address, so there is no such rule)
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped) return isPublicAddress(mapped[1] as string);
    if (/^::ffff:/i.test(address)) return false;
  }
  return !NOT_PUBLIC.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** dns.lookup that fails for a host with any non-public address (the socket connects to what it returns). */
function publicLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    if (addresses.length === 0 || !addresses.every((entry) => isPublicAddress(entry.address))) {
      return callback(Object.assign(new Error('not a public address'), { code: 'ENOTPUBLIC' }), []);
    }
    if (options.all) return callback(null, addresses);
    const [first] = addresses as [LookupAddress];
    callback(null, first.address, first.family);
  });
}

export interface DownloadOptions {
  maxBytes: number;
  signal: AbortSignal;
  /** the local stack's sandboxes live on 127.0.0.1; never set in the cloud */
  allowPrivateAddresses?: boolean;
  maxRedirects?: number;
}

function get(url: URL, options: DownloadOptions): Promise<IncomingMessage> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!options.allowPrivateAddresses && isIP(host) !== 0 && !isPublicAddress(host)) return Promise.reject(new DownloadRefused('not-public'));
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const outgoing = request(url, {
      method: 'GET',
      signal: options.signal,
      headers: { accept: 'image/png, image/jpeg', 'user-agent': 'ad-campaign-api image fetch' },
      ...(options.allowPrivateAddresses ? {} : { lookup: publicLookup as never }),
    });
    outgoing.on('response', resolve);
    outgoing.on('error', (error: NodeJS.ErrnoException) => reject(new DownloadRefused(error.code === 'ENOTPUBLIC' ? 'not-public' : 'unreachable')));
    outgoing.end();
  });
}

/** The body of a 2xx answer, following at most `maxRedirects` redirects to http(s) URLs. */
export async function downloadPublicUrl(address: string, options: DownloadOptions): Promise<Buffer> {
  let url = new URL(address);
  for (let redirects = 0; ; redirects++) {
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new DownloadRefused('unreachable');
    const response = await get(url, options);
    const status = response.statusCode ?? 0;
    if (status >= 300 && status < 400 && response.headers.location) {
      response.resume();
      if (redirects >= (options.maxRedirects ?? 3)) throw new DownloadRefused('too-many-redirects');
      url = new URL(response.headers.location, url);
      continue;
    }
    if (status < 200 || status >= 300) {
      response.resume();
      throw new DownloadRefused('unreachable', status);
    }
    if (Number(response.headers['content-length']) > options.maxBytes) {
      response.destroy();
      throw new DownloadRefused('too-large');
    }
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of response) {
        size += (chunk as Buffer).length;
        if (size > options.maxBytes) {
          response.destroy();
          throw new DownloadRefused('too-large');
        }
        chunks.push(chunk as Buffer);
      }
    } catch (error) {
      throw error instanceof DownloadRefused ? error : new DownloadRefused('unreachable');
    }
    return Buffer.concat(chunks);
  }
}
