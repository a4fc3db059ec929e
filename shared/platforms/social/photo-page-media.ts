import { PlatformNotConnected, PlatformRejected } from '../../core/errors.ts';
import type { PhotoPageMedia } from '../../schemas/social.ts';
import { graphRequest, type SocialSession } from './client.ts';
import { cursorParams, toPaging, type GraphPaging, type Paging } from './paging.ts';
import { pickPresent } from './pick.ts';
import { PAGE_SIZE } from './ad-account-media.ts';

/** docs/platforms.md, "Social": the page's linked photo-page business account, then its `/media` edge. */
export const PHOTO_MEDIA_FIELDS = [
  'id',
  'caption',
  'media_type',
  'media_url',
  'permalink',
  'timestamp',
  'ig_id',
  'boost_eligibility_info',
  'media_product_type',
] as const;

/**
 * The photo-page account id from the connection, or looked up from the page (`discovered`: the caller
 * remembers it, so the lookup happens once).
 */
export async function photoAccountId(
  session: SocialSession,
  connection: { pageId?: string; photoAccountId?: string },
): Promise<{ id: string; discovered: boolean }> {
  if (connection.photoAccountId) return { id: connection.photoAccountId, discovered: false };
  if (!connection.pageId) {
    throw new PlatformNotConnected('social', 'The user’s social connection names no pageId or photoAccountId; add one with create_user.');
  }
  const { body } = await graphRequest<{ instagram_business_account?: { id?: string } }>(session, 'GET', connection.pageId, {
    fields: 'instagram_business_account',
  });
  const id = body.instagram_business_account?.id;
  if (!id) throw new PlatformRejected('social', 'The user’s page has no linked photo-page business account.');
  return { id, discovered: true };
}

function toPhotoPageMedia(item: Record<string, unknown>): PhotoPageMedia {
  const media = pickPresent(item, PHOTO_MEDIA_FIELDS);
  if (media.ig_id !== undefined) media.ig_id = String(media.ig_id); // legacy ids may arrive as numbers
  const boost = item.boost_eligibility_info as { eligible_to_boost?: unknown } | undefined;
  if (boost && typeof boost.eligible_to_boost === 'boolean') media.boost_eligibility_info = { eligible_to_boost: boost.eligible_to_boost };
  else delete media.boost_eligibility_info;
  return media as PhotoPageMedia;
}

export async function listPhotoPageMedia(session: SocialSession, accountId: string, pagination: string): Promise<{ media: PhotoPageMedia[]; paging: Paging }> {
  const { body } = await graphRequest<{ data?: Array<Record<string, unknown>>; paging?: GraphPaging }>(session, 'GET', `${accountId}/media`, {
    fields: PHOTO_MEDIA_FIELDS.join(','),
    limit: PAGE_SIZE,
    ...cursorParams(pagination),
  });
  return { media: (body.data ?? []).map(toPhotoPageMedia), paging: toPaging(body.paging) };
}
