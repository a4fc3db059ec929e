import { log } from '../core/logger.ts';
import { readStagedUpload } from './staging.ts';

/** The file's bytes from `position` to its end, as a stream. */
export type OpenAt = (position: number) => Promise<AsyncIterable<Uint8Array>>;

/**
 * A staged file read range by range for an upload in chunks (docs/decisions.md, "Media into an ad
 * account"). One read of the object goes on while the ranges asked for follow each other: a file of
 * many chunks is one request to storage, not one per chunk. A range that does not follow opens a new
 * read at its start; a read cut while it waited (its socket idle while a slow chunk went upstream) is
 * opened again where it stopped, once per range.
 *
 * The next range is read while the current one is sent (`readAhead`), into two buffers used in turn:
 * two chunks in memory whatever the file's size, and no new 4 MiB buffer per chunk (each one pushed the
 * worker's small heap into a full collection). So the bytes `get` gives are written over by the read
 * after the next one: they are to be sent before the range after the next is asked for or read ahead.
 */
export class StagedRanges {
  private stream?: { position: number; chunks: AsyncIterator<Uint8Array>; rest?: Uint8Array };
  private ahead?: { start: number; end: number; bytes: Promise<Buffer> };
  private reading: Promise<unknown> = Promise.resolve();
  private readonly buffers: Buffer[] = [];
  private reads = 0;

  private readonly openAt: OpenAt;

  constructor(openAt: OpenAt) {
    this.openAt = openAt;
  }

  /** The staged upload `objectKey`, that version only (`etag`). */
  static ofUpload(objectKey: string, etag: string | undefined): StagedRanges {
    return new StagedRanges((position) => readStagedUpload(objectKey, position, etag));
  }

  /** Bytes [start, end) of the file: the range read ahead if it is this one. */
  get(start: number, end: number): Promise<Buffer> {
    const ahead = this.ahead;
    this.ahead = undefined;
    if (ahead?.start === start && ahead.end === end) return ahead.bytes;
    return this.read(start, end);
  }

  /** Starts reading [start, end) now, for the `get` that is expected next; a failure shows there, or nowhere if another range is asked. */
  readAhead(start: number, end: number): void {
    if (start >= end) return;
    const bytes = this.read(start, end);
    bytes.catch(() => undefined);
    this.ahead = { start, end, bytes };
  }

  /** Ends the read under way (a run that stops before the file's end leaves no request open). */
  async close(): Promise<void> {
    this.ahead = undefined;
    await this.reading.catch(() => undefined);
    const stream = this.stream;
    this.stream = undefined;
    await stream?.chunks.return?.().catch(() => undefined);
  }

  /** One read after another: the stream's position is only ever moved by one of them. */
  private read(start: number, end: number): Promise<Buffer> {
    const bytes = this.reading.catch(() => undefined).then(() => this.take(start, end));
    this.reading = bytes;
    return bytes;
  }

  private async take(start: number, end: number): Promise<Buffer> {
    const bytes = this.buffer(end - start);
    let filled = 0;
    let reopened = false;
    while (filled < bytes.length) {
      if (this.stream?.position !== start + filled) await this.open(start + filled);
      const stream = this.stream as NonNullable<typeof this.stream>;
      let piece = stream.rest;
      stream.rest = undefined;
      if (!piece) {
        let next: IteratorResult<Uint8Array>;
        try {
          next = await stream.chunks.next();
        } catch (error) {
          this.stream = undefined;
          if (reopened) throw error;
          log().warn('a staged file’s read was cut; reading on from where it stopped', { position: start + filled, reason: (error as Error).name });
          reopened = true;
          continue;
        }
        if (next.done) throw new Error(`The staged file ended at byte ${stream.position}, before byte ${end}.`);
        piece = next.value;
      }
      const used = Math.min(piece.length, bytes.length - filled);
      bytes.set(piece.subarray(0, used), filled);
      filled += used;
      stream.position += used;
      if (used < piece.length) stream.rest = piece.subarray(used);
    }
    return bytes;
  }

  /** The buffer of this read: the two are used in turn, each grown to the largest range it has held. */
  private buffer(size: number): Buffer {
    const turn = this.reads++ % 2;
    if ((this.buffers[turn]?.length ?? 0) < size) this.buffers[turn] = Buffer.allocUnsafe(size);
    return (this.buffers[turn] as Buffer).subarray(0, size);
  }

  private async open(position: number): Promise<void> {
    await this.stream?.chunks.return?.().catch(() => undefined);
    this.stream = undefined;
    const body = await this.openAt(position);
    this.stream = { position, chunks: body[Symbol.asyncIterator]() };
  }
}
