import { deleteStagedUpload } from '../../../shared/storage/staging.ts';
import type { Job } from '../../../shared/store/jobs.ts';

/**
 * An audience job's end: the contacts are not kept once the audience has them; after a failure the
 * file stays (the bucket's lifecycle ends it) so the client can start again.
 */
export async function dropContactsOnSuccess<Request extends { objectKey: string }, Checkpoint>(job: Job<Request, Checkpoint>): Promise<void> {
  if (job.status === 'succeeded') await deleteStagedUpload(job.request.objectKey);
}
