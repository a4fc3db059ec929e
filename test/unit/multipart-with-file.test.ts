import { describe, expect, it } from 'vitest';
import { multipartWithFile } from '../../shared/platforms/social/ad-videos.ts';

/** The video chunk's hand-written multipart body, read back by a standard parser (undici's Response.formData). */
describe('multipartWithFile', () => {
  it('is a form a standard parser reads back: each field, and the file byte for byte', async () => {
    const file = Uint8Array.from({ length: 70_000 }, (_, index) => (index * 31) % 256);
    const { contentType, length, parts } = multipartWithFile(
      [
        ['upload_phase', 'transfer'],
        ['start_offset', '4194304'],
        ['access_token', 'EAAtoken'],
      ],
      'video_file_chunk',
      file,
    );
    const body = Buffer.concat(parts);
    expect(body.length).toBe(length);
    expect(parts[1]).toBe(file); // the chunk itself, not a copy
    const form = await new Response(body, { headers: { 'content-type': contentType } }).formData();
    expect(form.get('upload_phase')).toBe('transfer');
    expect(form.get('start_offset')).toBe('4194304');
    const chunk = form.get('video_file_chunk') as File;
    expect(chunk.name).toBe('chunk');
    expect(Buffer.from(await chunk.arrayBuffer()).equals(Buffer.from(file))).toBe(true);
  });
});
