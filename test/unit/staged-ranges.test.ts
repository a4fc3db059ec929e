import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { StagedRanges } from '../../shared/storage/staged-ranges.ts';

/**
 * The video job's reader of a staged file by ranges, against a file in memory served the way storage
 * serves it (pieces of any size from a position on), which can cut a read part-way, as an idle socket does.
 */
function fileSource(file: Uint8Array, options: { pieceSize: number; cutAfterPieces?: number[] }) {
  const opens: number[] = [];
  const cuts = [...(options.cutAfterPieces ?? [])];
  const openAt = async (position: number) => {
    opens.push(position);
    const cutAfter = cuts.shift();
    return (async function* () {
      let pieces = 0;
      for (let at = position; at < file.length; at += options.pieceSize) {
        if (pieces++ === cutAfter) throw Object.assign(new Error('socket hang up'), { name: 'TimeoutError' });
        yield file.subarray(at, Math.min(file.length, at + options.pieceSize));
      }
    })();
  };
  return { openAt, opens };
}

const bytes = (length: number) => Uint8Array.from({ length }, (_, index) => (index * 7 + (index >> 8)) % 251);

describe('StagedRanges', () => {
  it('reads ranges that follow each other from one read of the file, reading the next while the current is used', async () => {
    const file = bytes(10_000);
    const source = fileSource(file, { pieceSize: 333 });
    const ranges = new StagedRanges(source.openAt);
    for (let start = 0; start < file.length; start += 1024) {
      const end = Math.min(file.length, start + 1024);
      const chunk = await ranges.get(start, end);
      ranges.readAhead(end, Math.min(file.length, end + 1024));
      expect(Buffer.from(chunk).equals(Buffer.from(file.subarray(start, end)))).toBe(true);
    }
    await ranges.close();
    expect(source.opens).toEqual([0]);
  });

  it('opens a new read at a range that does not follow, and drops the range read ahead', async () => {
    const file = bytes(5_000);
    const source = fileSource(file, { pieceSize: 512 });
    const ranges = new StagedRanges(source.openAt);
    expect(Buffer.from(await ranges.get(0, 1000)).equals(Buffer.from(file.subarray(0, 1000)))).toBe(true);
    ranges.readAhead(1000, 2000);
    // the platform asked for another range than the one read ahead (it corrected the offset)
    expect(Buffer.from(await ranges.get(600, 1600)).equals(Buffer.from(file.subarray(600, 1600)))).toBe(true);
    expect(source.opens).toEqual([0, 600]);
  });

  it('opens a read cut part-way again where it stopped, once per range; a second cut in one range fails the read', async () => {
    const file = bytes(4_000);
    const once = fileSource(file, { pieceSize: 100, cutAfterPieces: [5] });
    const ranges = new StagedRanges(once.openAt);
    expect(Buffer.from(await ranges.get(0, 4_000)).equals(Buffer.from(file))).toBe(true);
    expect(once.opens).toEqual([0, 500]);

    const twice = fileSource(file, { pieceSize: 100, cutAfterPieces: [5, 2] });
    await expect(new StagedRanges(twice.openAt).get(0, 4_000)).rejects.toThrow('socket hang up');
  });

  it('fails, never pads, when the file ends before the range', async () => {
    const source = fileSource(bytes(1_000), { pieceSize: 300 });
    await expect(new StagedRanges(source.openAt).get(900, 1_200)).rejects.toThrow('ended at byte 1000, before byte 1200');
  });

  it('gives each range byte for byte, whatever the pieces, ranges and cuts', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 5_000 }),
        fc.integer({ min: 1, max: 700 }),
        fc.array(fc.record({ at: fc.nat(), length: fc.integer({ min: 1, max: 900 }), follows: fc.boolean() }), { minLength: 1, maxLength: 12 }),
        fc.array(fc.integer({ min: 1, max: 20 }), { maxLength: 3 }),
        async (size, pieceSize, asks, cutAfterPieces) => {
          const file = bytes(size);
          const source = fileSource(file, { pieceSize, cutAfterPieces });
          const ranges = new StagedRanges(source.openAt);
          let position = 0;
          try {
            for (const ask of asks) {
              const start = ask.follows ? position % size : ask.at % size;
              const end = Math.min(size, start + ask.length);
              const chunk = await ranges.get(start, end).catch((error: Error) => error);
              if (chunk instanceof Error) {
                expect(chunk.message).toBe('socket hang up'); // two cuts in one range: the only way a read fails here
                return;
              }
              expect(Buffer.from(chunk).equals(Buffer.from(file.subarray(start, end)))).toBe(true);
              ranges.readAhead(end, Math.min(size, end + ask.length));
              position = end;
            }
          } finally {
            await ranges.close();
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
