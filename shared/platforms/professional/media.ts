import { PlatformRejected, ScopeMissing } from '../../core/errors.ts';
import { restliRequest, type ProfessionalSession } from './client.ts';

/**
 * Images and videos for a professional ad account (docs/platforms.md, "Professional: media"): owned by
 * the organization the ad account advertises for (its `reference`), shown in the account's library.
 * `initializeUpload` needs the member's w_organization_social; an image's upload URL takes the bearer
 * token, a video part's URL is pre-signed and takes none, and each part's `ETag` is kept verbatim for
 * `finalizeUpload`.
 */
export const ORGANIZATION_SCOPE = 'w_organization_social';

export type MediaStatus = 'WAITING_UPLOAD' | 'PROCESSING' | 'AVAILABLE' | 'PROCESSING_FAILED';

export interface UploadPart {
  uploadUrl: string;
  firstByte: number;
  /** inclusive */
  lastByte: number;
}

/** A connection made through a link knows what it was granted: without the organization scope nothing is sent. */
export function checkOrganizationScope(grantedScopes: string | undefined): void {
  if (grantedScopes !== undefined && !grantedScopes.split(/[ ,]+/).includes(ORGANIZATION_SCOPE)) throw new ScopeMissing('professional', ORGANIZATION_SCOPE);
}

/** The organization the ad account advertises for: the owner of its media. */
export async function accountOrganization(session: ProfessionalSession, accountId: string): Promise<string> {
  const { body } = await restliRequest(session, 'GET', `/adAccounts/${accountId}`);
  const reference = (body as { reference?: string } | null)?.reference;
  if (!reference?.startsWith('urn:li:organization:'))
    throw new PlatformRejected('professional', `Ad account ${accountId} advertises for no organization, and only an organization can own ad media.`);
  return reference;
}

/** initializeUpload; the platform's 403 is the missing organization permission. */
async function initialize<T>(session: ProfessionalSession, kind: 'images' | 'videos', request: Record<string, unknown>): Promise<T> {
  try {
    const { body } = await restliRequest(session, 'POST', `/${kind}?action=initializeUpload`, { json: { initializeUploadRequest: request } });
    return (body as { value: T }).value;
  } catch (error) {
    if (error instanceof PlatformRejected && error.extra.platformStatus === 403) throw new ScopeMissing('professional', ORGANIZATION_SCOPE);
    throw error;
  }
}

export async function uploadImage(session: ProfessionalSession, accountId: string, owner: string, bytes: Buffer, assetName?: string): Promise<string> {
  const { uploadUrl, image } = await initialize<{ uploadUrl: string; image: string }>(session, 'images', {
    owner,
    mediaLibraryMetadata: { associatedAccount: `urn:li:sponsoredAccount:${accountId}`, ...(assetName ? { assetName } : {}) },
  });
  // the same bytes to the same URL again is harmless: a lost answer is retried
  await restliRequest(session, 'PUT', uploadUrl, { restli: false, retrySafe: true, rawBody: { contentType: 'application/octet-stream', data: bytes } });
  return image;
}

export async function mediaStatus(session: ProfessionalSession, urn: string): Promise<{ status: MediaStatus; reason?: string }> {
  const kind = urn.startsWith('urn:li:video:') ? 'videos' : 'images';
  const { body } = await restliRequest(session, 'GET', `/${kind}/${encodeURIComponent(urn)}`);
  const answer = (body ?? {}) as { status?: MediaStatus; processingFailureReason?: string };
  return { status: answer.status ?? 'PROCESSING', ...(answer.processingFailureReason ? { reason: answer.processingFailureReason } : {}) };
}

export interface VideoUpload {
  video: string;
  uploadToken: string;
  parts: UploadPart[];
  /** when the parts' URLs stop answering (epoch ms), when the platform says */
  expiresAt?: number;
}

export async function initializeVideoUpload(session: ProfessionalSession, owner: string, fileSizeBytes: number): Promise<VideoUpload> {
  const value = await initialize<{ video: string; uploadToken?: string; uploadInstructions?: UploadPart[]; uploadUrlsExpireAt?: number }>(session, 'videos', {
    owner,
    fileSizeBytes,
    uploadCaptions: false,
    uploadThumbnail: false,
  });
  const parts = value.uploadInstructions ?? [];
  if (
    parts.length === 0 ||
    parts.some((part, index) => part.firstByte !== (parts[index - 1]?.lastByte ?? -1) + 1) ||
    parts.at(-1)?.lastByte !== fileSizeBytes - 1
  )
    throw new PlatformRejected('professional', 'The platform’s upload instructions do not cover the video byte for byte.');
  return {
    video: value.video,
    uploadToken: value.uploadToken ?? '',
    parts: parts.map(({ uploadUrl, firstByte, lastByte }) => ({ uploadUrl, firstByte, lastByte })),
    ...(typeof value.uploadUrlsExpireAt === 'number' ? { expiresAt: value.uploadUrlsExpireAt } : {}),
  };
}

/** One part to its pre-signed URL (no token); its ETag, kept as the platform wrote it. The same bytes again are harmless. */
export async function uploadVideoPart(session: ProfessionalSession, part: UploadPart, bytes: Buffer): Promise<string> {
  const { headers } = await restliRequest(session, 'PUT', part.uploadUrl, {
    anonymous: true,
    restli: false,
    retrySafe: true,
    rawBody: { contentType: 'application/octet-stream', data: bytes },
  });
  const etag = headers.get('etag');
  if (!etag) throw new PlatformRejected('professional', 'The platform took a video part without an ETag.');
  return etag;
}

/** finalizeUpload with every part's ETag in order. Sent once: a lost answer is read back by the caller. */
export async function finalizeVideoUpload(session: ProfessionalSession, upload: Pick<VideoUpload, 'video' | 'uploadToken'>, etags: string[]): Promise<void> {
  await restliRequest(session, 'POST', '/videos?action=finalizeUpload', {
    json: { finalizeUploadRequest: { video: upload.video, uploadToken: upload.uploadToken, uploadedPartIds: etags } },
  });
}
