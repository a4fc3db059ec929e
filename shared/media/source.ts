import { imageSize } from 'image-size';
import { clock } from '../core/clock.ts';
import { config } from '../core/config.ts';
import { InvalidRequest, UnsupportedMedia } from '../core/errors.ts';
import { cappedBody, DownloadRefused, type DownloadFailure, openPublicUrl } from '../net/public-download.ts';
import type { CallBudget } from '../platforms/upstream.ts';
import { readStagedRange, readStagedUpload, stageStream } from '../storage/staging.ts';
import type { DirectUpload } from '../store/uploads.ts';
import { MAX_IMAGE_BYTES, type MediaKind, mediaKindOf, SNIFF_BYTES } from './kinds.ts';

/**
 * A media file for an ad account, from an upload of the user or a URL (docs/decisions.md, "Media into
 * an ad account"), and what it is. A URL is fetched through the guarded request (public addresses only,
 * a size cap while streaming, a timeout); its kind is read from its first bytes.
 */
export interface ImageFile {
  kind: Extract<MediaKind, { type: 'IMAGE' }>;
  bytes: Buffer;
  width: number;
  height: number;
}

const DOWNLOAD_FAILURES: Record<DownloadFailure, string> = {
  'not-public': 'the URL must point to a public internet address',
  'not-https': 'the URL must be https (a plain http URL, or a redirect to one, is not fetched)',
  'too-large': 'the file is larger than an image (30 MiB) or a video (1 GiB) may be',
  unreachable: 'the file could not be downloaded',
  'too-many-redirects': 'the URL redirects more than 3 times',
};

const refuseUrl = (message: string): never => {
  throw new InvalidRequest(`url: ${message}.`, [{ path: 'url', message }]);
};

/** The guarded request's options for a URL a client gave. */
const fetchOptions = (maxBytes: number, signal: AbortSignal) => ({ maxBytes, signal, allowedNetworks: config().OUTBOUND_ALLOWED_NETWORKS.networks });

const refusalOfDownload = (error: unknown): never => {
  if (error instanceof DownloadRefused && error.status) return refuseUrl(`downloading the file answered HTTP ${error.status}`);
  return refuseUrl(DOWNLOAD_FAILURES[error instanceof DownloadRefused ? error.reason : 'unreachable']);
};

/**
 * What a URL holds, told from its first bytes: an image is read whole (at most 30 MiB) and answered; a
 * video is left for its job to fetch (it may be a gigabyte: not inside one request).
 */
export async function mediaAtUrl(url: string, budget: CallBudget): Promise<{ type: 'IMAGE'; image: ImageFile } | { type: 'VIDEO' }> {
  const signal = AbortSignal.timeout(Math.max(1, Math.min(config().UPSTREAM_TIMEOUT_MS * 4, budget.deadline - clock.now())));
  const chunks: Buffer[] = [];
  try {
    const response = await openPublicUrl(url, fetchOptions(config().UPLOAD_MAX_BYTES, signal));
    let size = 0;
    let kind: MediaKind | undefined;
    for await (const chunk of cappedBody(response, config().UPLOAD_MAX_BYTES)) {
      chunks.push(chunk);
      size += chunk.length;
      if (kind === undefined && size >= SNIFF_BYTES) {
        kind = mediaKindOf(Buffer.concat(chunks).subarray(0, SNIFF_BYTES));
        if (kind?.type !== 'IMAGE') {
          response.destroy();
          break;
        }
      }
      if (size > MAX_IMAGE_BYTES) {
        response.destroy();
        throw new DownloadRefused('too-large');
      }
    }
  } catch (error) {
    return refusalOfDownload(error);
  }
  const head = Buffer.concat(chunks);
  const kind = mediaKindOf(head.subarray(0, SNIFF_BYTES));
  if (!kind) return unsupported();
  return kind.type === 'VIDEO' ? { type: 'VIDEO' } : { type: 'IMAGE', image: imageFile(head) };
}

/** A video behind a URL, streamed into the bucket (its job's first step): its key, ETag and size. */
export async function stageVideoFromUrl(url: string, key: string, signal: AbortSignal): Promise<{ etag: string; contentLength: number }> {
  try {
    const response = await openPublicUrl(url, fetchOptions(config().UPLOAD_MAX_BYTES, signal));
    return await stageStream(key, cappedBody(response, config().UPLOAD_MAX_BYTES), 'video/mp4');
  } catch (error) {
    if (error instanceof DownloadRefused) return refusalOfDownload(error);
    throw error;
  }
}

/** The bytes of an upload, read whole: only for a file an image's size at most. */
export async function readUploadedMedia(upload: DirectUpload): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of await readStagedUpload(upload.objectKey, 0, upload.etag)) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** The first bytes of an upload, enough to tell its kind: a ranged read of just those. */
export async function uploadedKind(upload: Pick<DirectUpload, 'objectKey' | 'contentLength' | 'etag'>): Promise<MediaKind | undefined> {
  return mediaKindOf(await readStagedRange(upload.objectKey, 0, Math.min(SNIFF_BYTES, upload.contentLength), upload.etag));
}

export function unsupported(): never {
  throw new UnsupportedMedia(
    'The file is no JPEG, PNG or GIF image and no MP4 or QuickTime video (its first bytes say so, whatever its name); nothing was sent.',
  );
}

/** An upload whose bytes are an image but larger than an image may be. */
export function tooLargeForAnImage(): never {
  throw new InvalidRequest(`The file is an image larger than ${MAX_IMAGE_BYTES} bytes (30 MiB), the most an ad image may be; nothing was sent.`, [
    { path: 'uploadId', message: 'an image of at most 30 MiB' },
  ]);
}

/** An image file as the platforms take it: its kind from its bytes, its size in pixels. */
export function imageFile(bytes: Buffer): ImageFile {
  const kind = mediaKindOf(bytes.subarray(0, SNIFF_BYTES));
  if (kind?.type !== 'IMAGE') return unsupported();
  let size: { width?: number; height?: number };
  try {
    size = imageSize(bytes);
  } catch {
    throw new UnsupportedMedia(`The file starts as a ${kind.format.toUpperCase()} image but cannot be read as one; nothing was sent.`);
  }
  return { kind, bytes, width: size.width ?? 0, height: size.height ?? 0 };
}
