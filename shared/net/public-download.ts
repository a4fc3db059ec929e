import type { IncomingMessage } from 'node:http';
import type { BlockList } from 'node:net';
import { GuardedRequestFailed, guardedRequest } from './guarded-request.ts';

/**
 * Downloads a URL a client gave us (an image to upload) through the guarded request (guarded-request.ts:
 * public addresses only, checked at connect time), following each redirect as a guarded request of its
 * own; the size is capped while streaming.
 */
export type DownloadFailure = 'not-public' | 'not-https' | 'too-large' | 'unreachable' | 'too-many-redirects';

export class DownloadRefused extends Error {
  readonly reason: DownloadFailure;
  readonly status?: number;

  constructor(reason: DownloadFailure, status?: number) {
    super(reason);
    this.reason = reason;
    this.status = status;
  }
}

export interface DownloadOptions {
  maxBytes: number;
  signal: AbortSignal;
  /** non-public networks that may be reached all the same (see parseNetworks) */
  allowedNetworks?: BlockList;
  maxRedirects?: number;
}

/** One hop, through the guarded request: its refusals are this download's. */
async function get(url: URL, options: DownloadOptions): Promise<IncomingMessage> {
  try {
    return await guardedRequest(url, {
      method: 'GET',
      headers: { accept: 'image/png, image/jpeg, image/gif, video/mp4, video/quicktime', 'user-agent': 'ad-campaign-api media fetch' },
      signal: options.signal,
      ...(options.allowedNetworks ? { allowedNetworks: options.allowedNetworks } : {}),
    });
  } catch (error) {
    throw new DownloadRefused(
      error instanceof GuardedRequestFailed && (error.reason === 'not-public' || error.reason === 'not-https') ? error.reason : 'unreachable',
    );
  }
}

/** A 2xx answer, its body not yet read, following at most `maxRedirects` redirects to http(s) URLs. */
export async function openPublicUrl(address: string, options: DownloadOptions): Promise<IncomingMessage> {
  let url = new URL(address);
  for (let redirects = 0; ; redirects++) {
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
    return response;
  }
}

/** The body's bytes as they come, refused once they pass `maxBytes` (the stream is destroyed). */
export async function* cappedBody(response: IncomingMessage, maxBytes: number): AsyncIterable<Buffer> {
  let size = 0;
  try {
    for await (const chunk of response) {
      size += (chunk as Buffer).length;
      if (size > maxBytes) {
        response.destroy();
        throw new DownloadRefused('too-large');
      }
      yield chunk as Buffer;
    }
  } catch (error) {
    throw error instanceof DownloadRefused ? error : new DownloadRefused('unreachable');
  }
}

/** The whole body of a 2xx answer, at most `maxBytes`. */
export async function downloadPublicUrl(address: string, options: DownloadOptions): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of cappedBody(await openPublicUrl(address, options), options.maxBytes)) chunks.push(chunk);
  return Buffer.concat(chunks);
}
