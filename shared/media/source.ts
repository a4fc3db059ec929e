import { imageSize } from 'image-size';
import { clock } from '../core/clock.ts';
import { config } from '../core/config.ts';
import { InvalidRequest, UnsupportedMedia } from '../core/errors.ts';
import { DownloadRefused, downloadPublicUrl, type DownloadFailure } from '../net/public-download.ts';
import type { CallBudget } from '../platforms/upstream.ts';
import { readStagedRange, readStagedUpload } from '../storage/staging.ts';
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
  'too-large': 'the file is larger than 30 MiB, the most an image may be; send a video with /uploads/create_upload',
  unreachable: 'the file could not be downloaded',
  'too-many-redirects': 'the URL redirects more than 3 times',
};

const refuseUrl = (message: string): never => {
  throw new InvalidRequest(`url: ${message}.`, [{ path: 'url', message }]);
};

/** The whole file behind a URL, at most an image's size. */
export async function downloadMedia(url: string, budget: CallBudget): Promise<Buffer> {
  try {
    return await downloadPublicUrl(url, {
      maxBytes: MAX_IMAGE_BYTES,
      signal: AbortSignal.timeout(Math.max(1, Math.min(config().UPSTREAM_TIMEOUT_MS * 4, budget.deadline - clock.now()))),
      allowedNetworks: config().OUTBOUND_ALLOWED_NETWORKS.networks,
    });
  } catch (error) {
    if (error instanceof DownloadRefused && error.status) refuseUrl(`downloading the file answered HTTP ${error.status}`);
    return refuseUrl(DOWNLOAD_FAILURES[error instanceof DownloadRefused ? error.reason : 'unreachable']);
  }
}

/** The bytes of an upload, read whole: only for a file an image's size at most. */
export async function readUploadedMedia(upload: DirectUpload): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of await readStagedUpload(upload.objectKey, 0, upload.etag)) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** The first bytes of an upload, enough to tell its kind: a ranged read of just those. */
export async function uploadedKind(upload: DirectUpload): Promise<MediaKind | undefined> {
  return mediaKindOf(await readStagedRange(upload.objectKey, 0, Math.min(SNIFF_BYTES, upload.contentLength), upload.etag));
}

export function unsupported(): never {
  throw new UnsupportedMedia(
    'The file is no JPEG, PNG or GIF image and no MP4 or QuickTime video (its first bytes say so, whatever its name); nothing was sent.',
  );
}

/** A video at a URL: videos come by upload (create_upload, purpose video), which the job streams from storage in chunks. */
export function refuseVideo(field: 'uploadId' | 'url' = 'url'): never {
  throw new InvalidRequest(
    'The file is a video; send a video by upload: /uploads/create_upload with purpose video, PUT the file, then upload_ad_media with its uploadId.',
    [{ path: field, message: 'an image, or a video by uploadId' }],
  );
}

/** An upload whose bytes are an image but larger than an image may be. */
export function tooLargeForAnImage(): never {
  throw new InvalidRequest(`The file is an image larger than ${MAX_IMAGE_BYTES} bytes (30 MiB), the most an ad image may be; nothing was sent.`, [
    { path: 'uploadId', message: 'an image of at most 30 MiB' },
  ]);
}

/** An image file as the platforms take it: its kind from its bytes, its size in pixels. */
export function imageFile(bytes: Buffer, field: 'uploadId' | 'url' = 'uploadId'): ImageFile {
  const kind = mediaKindOf(bytes.subarray(0, SNIFF_BYTES));
  if (!kind) return unsupported();
  if (kind.type !== 'IMAGE') return refuseVideo(field);
  let size: { width?: number; height?: number };
  try {
    size = imageSize(bytes);
  } catch {
    throw new UnsupportedMedia(`The file starts as a ${kind.format.toUpperCase()} image but cannot be read as one; nothing was sent.`);
  }
  return { kind, bytes, width: size.width ?? 0, height: size.height ?? 0 };
}
