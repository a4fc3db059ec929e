import type { QueueMessage } from '../queue/messages.ts';
import { sendMessage } from '../queue/send.ts';

/** Runs of audience jobs: a message names the job; the worker reads everything else from the store. */
export type JobRef = QueueMessage<'AudienceJobs'>;

export function queueJobRun(ref: JobRef, delaySeconds = 0): Promise<void> {
  return sendMessage('AudienceJobs', { tenantId: ref.tenantId, jobId: ref.jobId }, { delaySeconds });
}
