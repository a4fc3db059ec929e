import { describe, expect, it } from 'vitest';
import { mediaKindOf } from '../../shared/media/kinds.ts';
import { imageFile } from '../../shared/media/source.ts';
import { samplePng } from '../../local/sandbox/sample-media.ts';

/** A media file's kind from its first bytes, never its name (docs/decisions.md, "Media into an ad account"). */
const bytes = (...values: number[]) => Uint8Array.from(values);
const ascii = (text: string) => Uint8Array.from(Buffer.from(text, 'latin1'));

describe('mediaKindOf', () => {
  it.each([
    ['JPEG', bytes(0xff, 0xd8, 0xff, 0xe0, 0, 0x10), { type: 'IMAGE', format: 'jpeg' }],
    ['PNG', bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0), { type: 'IMAGE', format: 'png' }],
    ['GIF89a', ascii('GIF89a\x01\x00'), { type: 'IMAGE', format: 'gif' }],
    ['GIF87a', ascii('GIF87a\x01\x00'), { type: 'IMAGE', format: 'gif' }],
    ['MP4', ascii('\x00\x00\x00\x20ftypisom\x00\x00\x02\x00'), { type: 'VIDEO', format: 'mp4' }],
    ['QuickTime', ascii('\x00\x00\x00\x14ftypqt  \x00\x00\x00\x00'), { type: 'VIDEO', format: 'quicktime' }],
  ])('%s', (_name, head, kind) => expect(mediaKindOf(head)).toEqual(kind));

  it.each([
    ['a PDF', ascii('%PDF-1.7')],
    ['a CSV', ascii('email,phone\n')],
    ['a PNG signature cut short', bytes(0x89, 0x50, 0x4e, 0x47)],
    ['ftyp too early', ascii('ftypisom')],
    ['nothing', bytes()],
  ])('%s is no media', (_name, head) => expect(mediaKindOf(head)).toBeUndefined());
});

describe('imageFile', () => {
  it('reads an image’s size from its bytes', () => {
    expect(imageFile(samplePng(321, 123))).toMatchObject({ kind: { type: 'IMAGE', format: 'png' }, width: 321, height: 123 });
  });

  it('refuses what is no image, and what starts as one but cannot be read, as UNSUPPORTED_MEDIA', () => {
    expect(() => imageFile(Buffer.from('%PDF-1.7'))).toThrow(expect.objectContaining({ code: 'UNSUPPORTED_MEDIA' }));
    expect(() => imageFile(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]))).toThrow(
      expect.objectContaining({ code: 'UNSUPPORTED_MEDIA' }),
    );
  });
});
