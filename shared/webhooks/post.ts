import type { IncomingMessage } from 'node:http';
import { config } from '../core/config.ts';
import { GuardedRequestFailed, guardedRequest } from '../net/guarded-request.ts';

/** One delivery attempt's answer: the receiver's status, or null when it never answered (timeout, refused, unreachable). */
export interface PostOutcome {
  status: number | null;
  reason?: 'timeout' | 'unreachable' | 'not-public' | 'not-https';
}

/**
 * POSTs a signed webhook body through the guarded request (the receiver's address is checked at
 * connect time: a URL that was public when set may not be now); redirects are not followed; the
 * answer's body is not read past a few kilobytes.
 */
export async function postWebhook(address: string, headers: Record<string, string>, body: string): Promise<PostOutcome> {
  let response: IncomingMessage;
  try {
    response = await guardedRequest(new URL(address), {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json', 'user-agent': 'ad-campaign-api webhooks' },
      body,
      signal: AbortSignal.timeout(config().WEBHOOK_TIMEOUT_MS),
      allowedNetworks: config().OUTBOUND_ALLOWED_NETWORKS.networks,
    });
  } catch (error) {
    return { status: null, reason: error instanceof GuardedRequestFailed ? error.reason : 'unreachable' };
  }
  return new Promise((resolve) => {
    let read = 0;
    response.on('data', (chunk: Buffer) => {
      read += chunk.length;
      if (read > 16_384) response.destroy();
    });
    response.on('close', () => resolve({ status: response.statusCode ?? null }));
    response.on('error', () => resolve({ status: response.statusCode ?? null }));
  });
}
