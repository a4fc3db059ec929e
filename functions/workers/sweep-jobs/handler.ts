import { clock } from '../../../shared/core/clock.ts';
import { log, withRequestLogger } from '../../../shared/core/logger.ts';
import { queueJobRun } from '../../../shared/jobs/job-queue.ts';
import { jobQueue } from '../../../shared/core/queues.ts';
import { releaseLeaseOfStoppedRun } from '../../../shared/store/job-writes.ts';
import { unfinishedJobs } from '../../../shared/store/job-scan.ts';
import { declaration } from './declaration.ts';

/**
 * On a schedule: queues again every unfinished job that nothing has moved for longer than the
 * worker's timeout (its message was lost); a job run by its own request is left to that request's retry. `afterRestart` (the local stack's start, when no run of
 * it can be alive) lets every unfinished job's lease go and queues each at once.
 */
export async function handler(event: { afterRestart?: boolean } = {}): Promise<{ requeued: number }> {
  return withRequestLogger({ requestId: `sweep-${clock.now()}`, operation: declaration.operation }, async () => {
    const now = clock.now();
    let requeued = 0;
    for await (const job of unfinishedJobs()) {
      const lastMoved = Math.max(Date.parse(job.updatedAt), job.resumeAt ?? 0);
      if (event.afterRestart) await releaseLeaseOfStoppedRun(job.tenantId, job.jobId);
      if (job.runsInRequest) continue; // a request's own job: its client's retry goes on with it
      if (!event.afterRestart && (now - lastMoved <= jobQueue.consumerTimeoutSeconds * 1000 || (job.leaseUntil ?? 0) > now)) continue;
      // a parked job (a daily quota) is queued for the rest of its wait, not at once
      await queueJobRun({ tenantId: job.tenantId, jobId: job.jobId }, Math.max(0, Math.ceil(((job.resumeAt ?? 0) - now) / 1000)));
      requeued++;
    }
    if (requeued > 0) log().warn('unfinished jobs queued again', { count: requeued, afterRestart: Boolean(event.afterRestart) });
    return { requeued };
  });
}
