import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type BlockList } from 'node:net';
import { isAllowedAddress } from '../core/addresses.ts';

/**
 * The one way we call a URL a client gave us (a webhook receiver, an image to fetch): every address the
 * host resolves to, checked at connect time, must be public (no loopback, private, link-local or
 * cloud-metadata address) unless configuration names its network, so a request cannot be turned
 * against our own network. An IP literal is checked before anything is sent. Redirects are the
 * caller's to follow (each hop is a request of its own, checked again). Plain `http:` is for the
 * networks configuration names only (the local stack's loopback): to a public host, and so everywhere
 * in the cloud, only `https:` is called (a redirect to `http:` too is refused).
 */
export type GuardedFailure = 'not-public' | 'not-https' | 'unreachable' | 'timeout';

export class GuardedRequestFailed extends Error {
  readonly reason: GuardedFailure;

  constructor(reason: GuardedFailure) {
    super(reason);
    this.reason = reason;
  }
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
type Lookup = (hostname: string, options: LookupOptions, callback: LookupCallback) => void;

/** Whether plain http may reach `address`: only inside a network configuration names. */
const plainHttpAllowed = (address: string, allowed?: BlockList) => allowed?.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4') ?? false;

/**
 * dns.lookup that fails for a host with any address not allowed (the socket connects to what it
 * returns); `plainHttp`: every address must be inside a configured network.
 */
export const guardedLookup =
  (allowed?: BlockList, plainHttp = false): Lookup =>
  (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      if (addresses.length === 0 || !addresses.every((entry) => isAllowedAddress(entry.address, allowed))) {
        return callback(Object.assign(new Error('not a public address'), { code: 'ENOTPUBLIC' }), []);
      }
      if (plainHttp && !addresses.every((entry) => plainHttpAllowed(entry.address, allowed))) {
        return callback(Object.assign(new Error('plain http to a public address'), { code: 'ENOTHTTPS' }), []);
      }
      if (options.all) return callback(null, addresses);
      const [first] = addresses as [LookupAddress];
      callback(null, first.address, first.family);
    });
  };

export interface GuardedRequest {
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  signal: AbortSignal;
  /** non-public networks that may be reached all the same (see parseNetworks) */
  allowedNetworks?: BlockList;
}

/** The answer's head (its body still to read), or GuardedRequestFailed saying why there is none. */
export function guardedRequest(url: URL, request: GuardedRequest): Promise<IncomingMessage> {
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return Promise.reject(new GuardedRequestFailed('unreachable'));
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const plainHttp = url.protocol === 'http:';
  if (isIP(host) !== 0 && !isAllowedAddress(host, request.allowedNetworks)) return Promise.reject(new GuardedRequestFailed('not-public'));
  if (plainHttp && isIP(host) !== 0 && !plainHttpAllowed(host, request.allowedNetworks)) return Promise.reject(new GuardedRequestFailed('not-https'));
  const send = plainHttp ? httpRequest : httpsRequest;
  return new Promise((resolve, reject) => {
    const outgoing = send(url, {
      method: request.method,
      headers: { ...request.headers, ...(request.body !== undefined ? { 'content-length': String(Buffer.byteLength(request.body)) } : {}) },
      signal: request.signal,
      lookup: guardedLookup(request.allowedNetworks, plainHttp) as never,
    });
    outgoing.on('response', resolve);
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      const reason =
        error.name === 'TimeoutError' || error.name === 'AbortError'
          ? 'timeout'
          : error.code === 'ENOTPUBLIC'
            ? 'not-public'
            : error.code === 'ENOTHTTPS'
              ? 'not-https'
              : 'unreachable';
      reject(new GuardedRequestFailed(reason));
    });
    outgoing.end(request.body);
  });
}
