import { scanItems } from './client.ts';
import { JOB_SORT_KEY, UNFINISHED, type Job } from './jobs.ts';

/** Every unfinished job, a page of the table at a time (the sweep's read, kept apart so that no request's bundle can scan). */
export async function* unfinishedJobs(): AsyncGenerator<Job> {
  const filter = {
    FilterExpression: 'sk = :job AND #status IN (:queued, :running)',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: { ':job': JOB_SORT_KEY, ...UNFINISHED },
  };
  for await (const item of scanItems(filter)) yield item as unknown as Job;
}
