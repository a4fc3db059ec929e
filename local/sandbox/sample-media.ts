import { crc32, deflateSync } from 'node:zlib';

/**
 * A real PNG of the given size (a gradient), made on the spot: what the sandboxes serve as a sample
 * image at `/__sandbox/sample.png`, and what tests and the walk-through upload.
 */
export function samplePng(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(2, 9); // truecolour
  const rows = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    for (let x = 0; x < width; x++) {
      rows[row + 1 + x * 3] = (x * 255) / Math.max(1, width - 1);
      rows[row + 2 + x * 3] = (y * 255) / Math.max(1, height - 1);
      rows[row + 3 + x * 3] = 128;
    }
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * An MP4 of `bytes` bytes as far as its first bytes tell (an `ftyp` box, then one `mdat` box of
 * deterministic filler): what the walk-through and tests send as a sample video. The sandbox does not
 * decode videos, nor does the service.
 */
export function sampleMp4(bytes: number): Buffer {
  const ftyp = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom', 'latin1'), Buffer.from([0, 0, 2, 0]), Buffer.from('isomiso2', 'latin1')]);
  const size = Math.max(bytes, ftyp.length + 8);
  const mdat = Buffer.alloc(size - ftyp.length);
  mdat.writeUInt32BE(mdat.length, 0);
  mdat.write('mdat', 4, 'latin1');
  let state = 0x2545f491;
  for (let index = 8; index < mdat.length; index++) {
    state = (state * 1103515245 + 12345) >>> 0;
    mdat[index] = state >>> 24;
  }
  return Buffer.concat([ftyp, mdat]);
}
