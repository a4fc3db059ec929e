import { parseMessage } from '../queue/connection.ts';
import { sendMessage } from '../queue/send.ts';

/** Runs of audience jobs: a message names the job; the worker reads everything else from the store. */
export interface JobRef {
  tenantId: string;
  jobId: string;
}

export function queueJobRun(ref: JobRef, delaySeconds = 0): Promise<void> {
  return sendMessage('AudienceJobs', { tenantId: ref.tenantId, jobId: ref.jobId }, { delaySeconds });
}

export const parseJobMessage = (body: string): JobRef | undefined => parseMessage(body, ['tenantId', 'jobId']);
