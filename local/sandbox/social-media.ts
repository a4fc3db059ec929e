import { createHash } from 'node:crypto';
import { imageSize } from 'image-size';
import { clock } from '../../shared/core/clock.ts';
import { cdn, type Row } from './social-data.ts';
import { type GraphHandler, graphError, usageHeaders, withHeaders } from './social-graph.ts';

/**
 * The social sandbox's ad images: `POST act_{id}/adimages` with `bytes` (base64), as the platform takes
 * them (docs/platforms.md, "Social"): JPEG or PNG only, at most 30 MB; the hash is the content's, so
 * the same bytes give the same image; the answer's one entry is keyed by the `name` sent, or `bytes`.
 * The image is listed by `GET act_{id}/adimages` after.
 */
const MAX_IMAGE_BYTES = 30 * 1024 * 1024;

export const uploadAdImage: GraphHandler<{ images: Map<string, Row[]> }> = (call, state, { account }) => {
  // any ad account takes images here (the demo account's library is seeded; another starts empty)
  const images = state.images.get(account as string) ?? state.images.set(account as string, []).get(account as string) ?? [];
  const encoded = call.params.bytes;
  if (typeof encoded !== 'string' || encoded === '') return graphError(100, '(#100) The parameter bytes is required');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) return graphError(100, '(#100) Param bytes must be a base64-encoded file');
  const bytes = Buffer.from(encoded, 'base64');
  if (bytes.length > MAX_IMAGE_BYTES) return graphError(100, '(#100) The image file is larger than 30 MB');
  let size: { width?: number; height?: number; type?: string };
  try {
    size = imageSize(bytes);
  } catch {
    return graphError(100, '(#100) Invalid image: the file could not be read as an image');
  }
  if (size.type !== 'jpg' && size.type !== 'png') return graphError(100, `(#100) Invalid image format: ${String(size.type).toUpperCase()}; use JPG or PNG`);
  const hash = createHash('md5').update(bytes).digest('hex');
  const name = typeof call.params.name === 'string' && call.params.name !== '' ? call.params.name : undefined;
  const url = cdn(`t45.1600-4/${hash}_n.${size.type}`, hash.slice(0, 8));
  if (!images.some((image) => image.hash === hash)) {
    const now = clock
      .date()
      .toISOString()
      .replace(/\.\d{3}Z$/, '+0000');
    images.unshift({
      id: `${account}:${hash}`,
      account_id: account,
      hash,
      name: name ?? `${hash}.${size.type}`,
      url,
      permalink_url: `https://www.facebook.com/ads/image/?d=${hash}`,
      width: size.width,
      height: size.height,
      original_width: size.width,
      original_height: size.height,
      status: 'ACTIVE',
      created_time: now,
      updated_time: now,
    });
  }
  return withHeaders({ status: 200, body: { images: { [name ?? 'bytes']: { hash, url } } } }, usageHeaders(account));
};
