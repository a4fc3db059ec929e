import { createHash } from 'node:crypto';
import { clock } from '../../shared/core/clock.ts';
import { type MediaProcessing, mediaProcessingOf, mediaProcessingUsage } from './media-processing.ts';
import { restliError } from './professional-restli.ts';
import type { SandboxRequest, SandboxResponse } from './server.ts';

/**
 * The professional sandbox's Images and Videos APIs (docs/platforms.md, "Professional: media"):
 * `initializeUpload` for an organization (the member must hold w_organization_social), upload URLs on a
 * `dms-uploads` path (an image PUT needs the bearer token; a video part URL is pre-signed and takes
 * none), parts of 4 MiB whose answer carries an `ETag`, `finalizeUpload` that checks the ETags and their
 * order, and `GET /rest/images|videos/{urn}` moving WAITING_UPLOAD → PROCESSING → AVAILABLE over clock
 * time. How long processing takes, and whether it fails, is set per organization.
 */
export const VIDEO_PART_BYTES = 4_194_304;
const DEFAULT_PROCESSING_SECONDS = 5;
const URL_LIFETIME_MS = 60 * 60_000;

interface Part {
  firstByte: number;
  lastByte: number;
  etag?: string;
  bytes?: Buffer;
}

interface Media {
  kind: 'image' | 'video';
  owner: string;
  fileSize?: number;
  parts: Part[];
  /** when the platform had every byte (image PUT, video finalize) */
  completedAt?: number;
  processing: Processing;
  sha256?: string;
  /** when its upload URLs stop answering (epoch ms) */
  urlsExpireAt?: number;
}

/** How an organization's next media process, and how long the next video's upload URLs answer. */
type Processing = MediaProcessing<'urlSeconds'>;

export interface MediaState {
  media: Map<string, Media>;
  processing: Map<string, Processing>;
  nextId: number;
}

/** The demo account's library, there from the start: two images and a video its organization owns, processed. */
export const SANDBOX_LIBRARY = {
  images: ['urn:li:image:D4E10AQSandboxLibrary01', 'urn:li:image:D4E10AQSandboxLibrary02'],
  video: 'urn:li:video:D5610AQSandboxLibrary01',
  /** the organization of the demo ad account 500000001 */
  owner: 'urn:li:organization:2400001',
};

/** What a restart keeps of the media: everything but the bytes. */
export type SavedMedia = { media: Array<[string, Media]>; nextId: number };

export function newMediaState(saved?: SavedMedia): MediaState {
  if (saved) return { media: new Map(saved.media), processing: new Map(), nextId: saved.nextId };
  const ready = (kind: 'image' | 'video'): Media => ({ kind, owner: SANDBOX_LIBRARY.owner, parts: [], completedAt: 0, processing: { seconds: 0 } });
  const media = new Map<string, Media>([
    ...SANDBOX_LIBRARY.images.map((urn): [string, Media] => [urn, ready('image')]),
    [SANDBOX_LIBRARY.video, ready('video')],
  ]);
  return { media, processing: new Map(), nextId: 1 };
}

export const savedMedia = (state: MediaState): SavedMedia => ({
  media: [...state.media].map(([urn, media]) => [urn, { ...media, parts: media.parts.map(({ bytes: _bytes, ...part }) => part) }]),
  nextId: state.nextId,
});

const ORGANIZATION = /^urn:li:organization:\d+$/;

function ownerOf(request: SandboxRequest, canPost: boolean): string | SandboxResponse {
  const owner = (request.fields.initializeUploadRequest as { owner?: unknown } | undefined)?.owner;
  if (typeof owner !== 'string' || !ORGANIZATION.test(owner))
    return restliError(422, { code: 'UNPROCESSABLE_ENTITY', message: `initializeUploadRequest.owner must be an organization URN, got ${String(owner)}` });
  if (!canPost) return restliError(403, { code: 'ACCESS_DENIED', message: `Not enough permissions to access: partnerApiImages.ACTION.initializeUpload` });
  return owner;
}

export function initializeImageUpload(state: MediaState, request: SandboxRequest, base: string, canPost: boolean): SandboxResponse {
  const owner = ownerOf(request, canPost);
  if (typeof owner !== 'string') return owner;
  const key = `D4E10AQSandboxImg${String(state.nextId++).padStart(6, '0')}`;
  const urn = `urn:li:image:${key}`;
  state.media.set(urn, { kind: 'image', owner, parts: [{ firstByte: 0, lastByte: -1 }], processing: processingOf(state, owner) });
  return {
    status: 200,
    body: { value: { uploadUrlExpiresAt: clock.now() + URL_LIFETIME_MS, uploadUrl: `${base}/dms-uploads/sp/v2/${key}/uploaded-image/0`, image: urn } },
  };
}

export function initializeVideoUpload(state: MediaState, request: SandboxRequest, base: string, canPost: boolean): SandboxResponse {
  const owner = ownerOf(request, canPost);
  if (typeof owner !== 'string') return owner;
  const size = (request.fields.initializeUploadRequest as { fileSizeBytes?: unknown }).fileSizeBytes;
  if (typeof size !== 'number' || !Number.isInteger(size) || size < 1)
    return restliError(422, { code: 'UNPROCESSABLE_ENTITY', message: 'initializeUploadRequest.fileSizeBytes must be a positive integer' });
  const key = `D5610AQSandboxVid${String(state.nextId++).padStart(6, '0')}`;
  const urn = `urn:li:video:${key}`;
  const parts: Part[] = [];
  for (let first = 0; first < size; first += VIDEO_PART_BYTES) parts.push({ firstByte: first, lastByte: Math.min(size, first + VIDEO_PART_BYTES) - 1 });
  const { urlSeconds, ...processing } = processingOf(state, owner);
  // a short URL lifetime is for the next upload only (a test of an upload resumed after its URLs expired)
  if (urlSeconds !== undefined) state.processing.set(owner, processing);
  const urlsExpireAt = clock.now() + (urlSeconds !== undefined ? urlSeconds * 1000 : URL_LIFETIME_MS);
  state.media.set(urn, { kind: 'video', owner, fileSize: size, parts, processing, urlsExpireAt });
  return {
    status: 200,
    body: {
      value: {
        uploadUrlsExpireAt: urlsExpireAt,
        video: urn,
        uploadInstructions: parts.map((part, index) => ({
          uploadUrl: `${base}/dms-uploads/sp/v2/${key}/uploadedVideo/${index}`,
          firstByte: part.firstByte,
          lastByte: part.lastByte,
        })),
        uploadToken: '',
      },
    },
  };
}

const processingOf = (state: MediaState, owner: string) => state.processing.get(owner) ?? { seconds: DEFAULT_PROCESSING_SECONDS };

/** `PUT <uploadUrl>`: an image's bytes (with the bearer token: checked by the route), or one part of a video (no token needed). */
export function putUpload(state: MediaState, request: SandboxRequest, key: string, kind: 'image' | 'video', index: number): SandboxResponse {
  const urn = `urn:li:${kind}:${key}`;
  const media = state.media.get(urn);
  const part = media?.parts[index];
  if (!media || media.kind !== kind || !part) return { status: 404, body: { message: 'Upload URL not found' } };
  if (media.urlsExpireAt !== undefined && clock.now() > media.urlsExpireAt) return { status: 403, body: { message: 'Request has expired' } };
  if (kind === 'image') {
    if (request.body.length === 0) return { status: 400, body: { message: 'Empty upload' } };
    part.bytes = request.body;
    media.completedAt = clock.now();
    media.sha256 = createHash('sha256').update(request.body).digest('hex');
    return { status: 201, raw: '' };
  }
  const expected = part.lastByte - part.firstByte + 1;
  if (request.body.length !== expected) return { status: 400, body: { message: `Part ${index} must be ${expected} bytes, got ${request.body.length}` } };
  part.bytes = request.body;
  part.etag = `/AQSandboxEtag${index}${createHash('md5').update(request.body).digest('base64')}`;
  return { status: 200, raw: '', headers: { etag: part.etag } };
}

export function finalizeVideoUpload(state: MediaState, request: SandboxRequest): SandboxResponse {
  const finalize = request.fields.finalizeUploadRequest as { video?: unknown; uploadToken?: unknown; uploadedPartIds?: unknown } | undefined;
  const media = typeof finalize?.video === 'string' ? state.media.get(finalize.video) : undefined;
  if (media?.kind !== 'video') return restliError(404, { code: 'NOT_FOUND', message: `No video ${String(finalize?.video)} waiting for upload` });
  if (finalize?.uploadToken !== '') return restliError(400, { code: 'BAD_REQUEST', message: 'uploadToken must be sent back as it was given' });
  const etags = media.parts.map((part) => part.etag);
  const sent = finalize.uploadedPartIds;
  if (etags.some((etag) => etag === undefined)) return restliError(400, { code: 'BAD_REQUEST', message: 'Not every part has been uploaded' });
  if (!Array.isArray(sent) || sent.length !== etags.length || sent.some((etag, index) => etag !== etags[index]))
    return restliError(400, { code: 'BAD_REQUEST', message: 'uploadedPartIds must be the ETags of every part, in order' });
  media.completedAt = clock.now();
  // a restart keeps each part's ETag (its MD5) but not its bytes: the whole file's digest is known only without one
  if (media.parts.every((part) => part.bytes))
    media.sha256 = createHash('sha256')
      .update(Buffer.concat(media.parts.map((part) => part.bytes as Buffer)))
      .digest('hex');
  for (const part of media.parts) delete part.bytes;
  return { status: 200, raw: '' };
}

export function getMedia(state: MediaState, urn: string): SandboxResponse {
  const view = mediaView(state, urn);
  return view ? { status: 200, body: view.body } : restliError(404, { code: 'NOT_FOUND', message: `No media ${urn}` });
}

/** A media item as the platform shows it (what a GET answers), or undefined when there is none. */
export function mediaView(
  state: MediaState,
  urn: string,
): { kind: 'image' | 'video'; owner: string; status: string; body: Record<string, unknown> } | undefined {
  const media = state.media.get(urn);
  if (!media) return undefined;
  const status = statusOf(media);
  return {
    kind: media.kind,
    owner: media.owner,
    status,
    body: {
      owner: media.owner,
      status,
      id: urn,
      ...(status === 'PROCESSING_FAILED' ? { processingFailureReason: media.processing.error } : {}),
      ...(status === 'AVAILABLE'
        ? { downloadUrl: `https://media.licdn.com/dms/${media.kind}/${encodeURIComponent(urn)}`, downloadUrlExpiresAt: clock.now() + URL_LIFETIME_MS }
        : {}),
      ...(status === 'AVAILABLE' && media.kind === 'video'
        ? { thumbnail: `https://media.licdn.com/dms/image/${encodeURIComponent(urn)}/videocover-high` }
        : {}),
    },
  };
}

function statusOf(media: Media): 'WAITING_UPLOAD' | 'PROCESSING' | 'AVAILABLE' | 'PROCESSING_FAILED' {
  if (media.completedAt === undefined) return 'WAITING_UPLOAD';
  if ((clock.now() - media.completedAt) / 1000 < media.processing.seconds) return 'PROCESSING';
  return media.processing.error ? 'PROCESSING_FAILED' : 'AVAILABLE';
}

/** For the tests: what the platform holds of a media item, and each part's ETag. */
export function storedMedia(state: MediaState, urn: string): { owner: string; sha256?: string; parts: number; etags: Array<string | undefined> } | undefined {
  const media = state.media.get(urn);
  return media
    ? { owner: media.owner, ...(media.sha256 ? { sha256: media.sha256 } : {}), parts: media.parts.length, etags: media.parts.map((part) => part.etag) }
    : undefined;
}

/** `POST /__sandbox/media-processing {owner, seconds?, error?, urlSeconds?}`: how the organization's next media process, and how long their upload URLs answer. */
export function setMediaProcessing(state: MediaState, fields: Record<string, unknown>): SandboxResponse {
  const owner = String(fields.owner ?? '');
  const processing = mediaProcessingOf(fields, DEFAULT_PROCESSING_SECONDS, 'urlSeconds');
  if (!ORGANIZATION.test(owner) || !processing) return { status: 400, body: { error: mediaProcessingUsage('owner (an organization URN)', 'urlSeconds') } };
  state.processing.set(owner, processing);
  return { status: 200, body: processing };
}
