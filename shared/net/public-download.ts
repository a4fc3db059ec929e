import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type BlockList } from 'node:net';
import { isAllowedAddress } from '../core/addresses.ts';

/**
 * Downloads a URL a client gave us (an image to upload) without letting it reach anything but the
 * public internet: every address the host resolves to, at connect time and after each redirect, must
 * be public (no loopback, private, link-local or cloud-metadata address), so a request cannot be
 * turned against our own network (unless configuration names it). The size is capped while streaming.
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

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
type Lookup = (hostname: string, options: LookupOptions, callback: LookupCallback) => void;

/** dns.lookup that fails for a host with any address not allowed (the socket connects to what it returns). */
export const guardedLookup =
  (allowed?: BlockList): Lookup =>
  (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      if (addresses.length === 0 || !addresses.every((entry) => isAllowedAddress(entry.address, allowed))) {
        return callback(Object.assign(new Error('not a public address'), { code: 'ENOTPUBLIC' }), []);
      }
      if (options.all) return callback(null, addresses);
      const [first] = addresses as [LookupAddress];
      callback(null, first.address, first.family);
    });
  };

export interface DownloadOptions {
  maxBytes: number;
  signal: AbortSignal;
  /** non-public networks that may be reached all the same (see parseNetworks) */
  allowedNetworks?: BlockList;
  maxRedirects?: number;
}

function get(url: URL, options: DownloadOptions): Promise<IncomingMessage> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0 && !isAllowedAddress(host, options.allowedNetworks)) return Promise.reject(new DownloadRefused('not-public'));
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const outgoing = request(url, {
      method: 'GET',
      signal: options.signal,
      headers: { accept: 'image/png, image/jpeg', 'user-agent': 'ad-campaign-api image fetch' },
      lookup: guardedLookup(options.allowedNetworks) as never,
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
