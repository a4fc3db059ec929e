import { readStagedUpload } from '../../../shared/storage/staging.ts';
import type { DirectUpload } from '../../../shared/store/uploads.ts';

/**
 * A contact file checked by the request that starts its job (docs/csv.md): every problem with the
 * file itself is a 400 before anything is made on any platform, in both forms. An upload up to this
 * size is read whole (a stream, memory flat) within the request; a larger one is read whole by its job
 * before the job makes or sends anything, and its job fails with the same sentence.
 */
export const CHECKED_IN_REQUEST_BYTES = 16 * 1024 * 1024;

/** `check` is given the file to open (as often as it reads it: once, or twice for a report). */
export async function checkUploadInRequest(upload: DirectUpload, check: (open: () => Promise<AsyncIterable<Uint8Array>>) => Promise<unknown>): Promise<void> {
  if (upload.contentLength > CHECKED_IN_REQUEST_BYTES) return;
  await check(() => readStagedUpload(upload.objectKey, 0, upload.etag));
}

/** A file held in memory (a multipart request's) as the byte stream a check reads. */
export async function* bytesOf(content: Uint8Array): AsyncGenerator<Uint8Array> {
  yield content;
}
