import { readStagedUpload } from '../../../shared/storage/staging.ts';
import type { JobRun } from './job-run.ts';

/**
 * A job's file (an audience's list): from the staging bucket, or from memory when the run is the
 * request that carried it. Apart from the run itself, so that a kind with no file (an undo, a backfill)
 * bundles no bucket client, and its function is granted none.
 */

/** A file in the bucket, at the version the job's start found (every read asks for it: If-Match). */
export interface StagedFile {
  objectKey: string;
  etag?: string | undefined;
}

const CHUNK_BYTES = 64 * 1024;

/** Bytes in memory as the stream a stored file gives: chunks, so the readers hold no more than they would. */
async function* chunksOf(bytes: Uint8Array): AsyncIterable<Uint8Array> {
  for (let offset = 0; offset < bytes.length; offset += CHUNK_BYTES) yield bytes.subarray(offset, offset + CHUNK_BYTES);
}

/**
 * The file, or its rest from `fromByte` on (a ranged read: nothing before is read again); the first
 * full read (the check) counts its bytes into the run's progress.
 */
export async function readJobFile(
  run: JobRun,
  { objectKey, etag }: StagedFile,
  { countBytes = false, fromByte = 0 }: { countBytes?: boolean; fromByte?: number } = {},
): Promise<AsyncIterable<Uint8Array>> {
  if (fromByte >= run.job.progress.totalBytes) return (async function* () {})(); // every row was sent: S3 refuses a range past the end
  const bytes = run.source ? chunksOf(run.source.subarray(fromByte)) : await readStagedUpload(objectKey, fromByte, etag);
  if (!countBytes) return bytes;
  const progress = run.job.progress;
  let read = 0;
  return (async function* () {
    for await (const chunk of bytes) {
      read += chunk.length;
      progress.bytesRead = Math.max(progress.bytesRead, Math.min(progress.totalBytes, read)); // a re-read after a restart never moves it back
      yield chunk;
    }
  })();
}

/** The file as a stream that opens when first read (a body built for one upload attempt). */
export function streamJobFile(run: JobRun, file: StagedFile): AsyncIterable<Uint8Array> {
  return (async function* () {
    yield* await readJobFile(run, file);
  })();
}
