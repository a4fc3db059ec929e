import type { ImageMedia, VideoMedia } from '../../schemas/social.ts';
import { PlatformRejected } from '../../core/errors.ts';
import { graphRequest, type SocialSession } from './client.ts';
import { cursorParams, toPaging, type GraphPaging, type Paging } from './paging.ts';
import { pickPresent } from './pick.ts';

/** docs/platforms.md, "Social": `act_{id}/adimages` and `act_{id}/advideos`, asking for exactly the fields the spec returns. */
export const PAGE_SIZE = 25;
export const IMAGE_FIELDS = ['id', 'hash', 'url', 'width', 'height'] as const;
export const VIDEO_FIELDS = ['id', 'format'] as const;
const FORMAT_FIELDS = ['embed_html', 'filter', 'width', 'height', 'picture'] as const;

interface Edge {
  data?: Array<Record<string, unknown>>;
  paging?: GraphPaging;
}

export async function listAdImages(session: SocialSession, adAccountId: string, pagination: string): Promise<{ media: ImageMedia[]; paging: Paging }> {
  const { body } = await graphRequest<Edge>(session, 'GET', `act_${adAccountId}/adimages`, {
    fields: IMAGE_FIELDS.join(','),
    limit: PAGE_SIZE,
    ...cursorParams(pagination),
  });
  const media = (body.data ?? []).map((image) => pickPresent(image, IMAGE_FIELDS) as ImageMedia);
  return { media, paging: toPaging(body.paging) };
}

export async function listAdVideos(session: SocialSession, adAccountId: string, pagination: string): Promise<{ media: VideoMedia[]; paging: Paging }> {
  const { body } = await graphRequest<Edge>(session, 'GET', `act_${adAccountId}/advideos`, {
    fields: VIDEO_FIELDS.join(','),
    limit: PAGE_SIZE,
    ...cursorParams(pagination),
  });
  const media = (body.data ?? []).map((video) => ({
    ...pickPresent(video, ['id'] as const),
    // a video still processing has no formats yet
    format: ((video.format as Array<Record<string, unknown>> | undefined) ?? []).map((format) => pickPresent(format, FORMAT_FIELDS)),
  })) as VideoMedia[];
  return { media, paging: toPaging(body.paging) };
}

/**
 * `POST act_{id}/adimages` with the image's bytes (base64, docs/platforms.md "Social"): its hash, what a
 * creative names, and a temporary URL. The answer's one entry is read whatever its key. The same bytes
 * give the same hash, so sending them again after a lost answer is harmless.
 */
export async function uploadAdImage(session: SocialSession, adAccountId: string, bytes: Buffer, name?: string): Promise<{ hash: string; url?: string }> {
  const { body } = await graphRequest<{ images?: Record<string, { hash?: string; url?: string }> }>(
    session,
    'POST',
    `act_${adAccountId}/adimages`,
    { bytes: bytes.toString('base64'), ...(name ? { name } : {}) },
    { retrySafe: true },
  );
  const [entry] = Object.values(body.images ?? {});
  if (!entry?.hash) throw new PlatformRejected('social', 'The platform did not return the image’s hash.');
  return { hash: entry.hash, ...(entry.url ? { url: entry.url } : {}) };
}
