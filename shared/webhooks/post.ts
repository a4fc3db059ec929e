import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { config } from '../core/config.ts';
import { isAllowedAddress } from '../core/addresses.ts';
import { guardedLookup } from '../net/public-download.ts';

/** One delivery attempt's answer: the receiver's status, or null when it never answered (timeout, refused, unreachable). */
export interface PostOutcome {
  status: number | null;
  reason?: 'timeout' | 'unreachable' | 'not-public';
}

/**
 * POSTs a signed webhook body. The receiver's address is checked at connect time (a URL that was
 * public when set may not be now); redirects are not followed; the answer's body is not read past
 * a few kilobytes.
 */
export function postWebhook(address: string, headers: Record<string, string>, body: string): Promise<PostOutcome> {
  const url = new URL(address);
  const allowed = config().OUTBOUND_ALLOWED_NETWORKS.networks;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0 && !isAllowedAddress(host, allowed)) return Promise.resolve({ status: null, reason: 'not-public' });
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    const outgoing = send(url, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), 'user-agent': 'ad-campaign-api webhooks' },
      lookup: guardedLookup(allowed) as never,
      signal: AbortSignal.timeout(config().WEBHOOK_TIMEOUT_MS),
    });
    outgoing.on('response', (response) => {
      let read = 0;
      response.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read > 16_384) response.destroy();
      });
      response.on('close', () => resolve({ status: response.statusCode ?? null }));
      response.on('error', () => resolve({ status: response.statusCode ?? null }));
    });
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      const timedOut = error.name === 'TimeoutError' || error.name === 'AbortError';
      resolve({ status: null, reason: timedOut ? 'timeout' : error.code === 'ENOTPUBLIC' ? 'not-public' : 'unreachable' });
    });
    outgoing.end(body);
  });
}
