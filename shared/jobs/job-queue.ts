import type { QueueMessage } from '../queue/messages.ts';
import { sendMessage } from '../queue/send.ts';

/** Runs of jobs (any kind): a message names the job; the worker reads everything else from the store. */
export type JobRef = QueueMessage<'Jobs'>;

export function queueJobRun(ref: JobRef, delaySeconds = 0): Promise<void> {
  return sendMessage('Jobs', { tenantId: ref.tenantId, jobId: ref.jobId }, { delaySeconds });
}
