import { deleteStagedUpload } from '../../../shared/storage/staging.ts';
import type { Job } from '../../../shared/store/jobs.ts';

/**
 * An audience job's end, succeeded or failed: its contact file is deleted (docs/csv.md). A failed job
 * holds its upload for good (one job per upload), so a new start needs a new upload anyway; the
 * person's contacts are not left in the bucket for its lifecycle rule to find.
 */
export async function dropContacts<Request extends { objectKey: string }, Checkpoint>(job: Job<Request, Checkpoint>): Promise<void> {
  await deleteStagedUpload(job.request.objectKey);
}
