/**
 * What a media file is, read from its first bytes, never from its name or declared type
 * (docs/decisions.md, "Media into an ad account"): JPEG, PNG and GIF images; MP4 and QuickTime videos
 * (an ISO base media file: `ftyp` at byte 4, the brand after it).
 */
export type MediaKind = { type: 'IMAGE'; format: 'jpeg' | 'png' | 'gif' } | { type: 'VIDEO'; format: 'mp4' | 'quicktime' };

/** The bytes a kind needs to be told: enough for every signature below. */
export const SNIFF_BYTES = 16;

/** An image is at most 30 MiB (both platforms' limit for ad images). */
export const MAX_IMAGE_BYTES = 31_457_280;

export const CONTENT_TYPES = {
  image: ['image/jpeg', 'image/png', 'image/gif'],
  video: ['video/mp4', 'video/quicktime'],
} as const;

const startsWith = (bytes: Uint8Array, signature: readonly number[], at = 0) => signature.every((byte, index) => bytes[at + index] === byte);
const ascii = (bytes: Uint8Array, from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));

export function mediaKindOf(bytes: Uint8Array): MediaKind | undefined {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return { type: 'IMAGE', format: 'jpeg' };
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return { type: 'IMAGE', format: 'png' };
  if (ascii(bytes, 0, 6) === 'GIF87a' || ascii(bytes, 0, 6) === 'GIF89a') return { type: 'IMAGE', format: 'gif' };
  if (bytes.length >= 12 && ascii(bytes, 4, 8) === 'ftyp') return { type: 'VIDEO', format: ascii(bytes, 8, 12) === 'qt  ' ? 'quicktime' : 'mp4' };
  return undefined;
}
