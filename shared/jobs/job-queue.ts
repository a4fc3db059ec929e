import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { config } from '../config.ts';
import { AWS_REQUEST_HANDLER } from '../aws-timeouts.ts';

/** Runs of audience jobs: a message names the job; the worker reads everything else from the store. */
export interface JobRef {
  tenantId: string;
  jobId: string;
}

/** SQS delays a message by 15 minutes at most; a longer wait is made of several. */
export const MAX_DELAY_SECONDS = 900;

let client: SQSClient | undefined;

export async function queueJobRun(ref: JobRef, delaySeconds = 0): Promise<void> {
  const url = config().AUDIENCE_JOB_QUEUE_URL;
  if (!url) throw new Error('AUDIENCE_JOB_QUEUE_URL is not configured');
  client ??= new SQSClient({ requestHandler: AWS_REQUEST_HANDLER });
  await client.send(
    new SendMessageCommand({ QueueUrl: url, MessageBody: JSON.stringify(ref), DelaySeconds: Math.min(MAX_DELAY_SECONDS, Math.max(0, Math.ceil(delaySeconds))) }),
  );
}

export function parseJobMessage(body: string): JobRef | undefined {
  try {
    const parsed = JSON.parse(body) as Partial<JobRef>;
    if (typeof parsed.tenantId === 'string' && typeof parsed.jobId === 'string') return { tenantId: parsed.tenantId, jobId: parsed.jobId };
  } catch {
    // not ours
  }
  return undefined;
}
