import { SQSClient } from '@aws-sdk/client-sqs';
import { AWS_REQUEST_HANDLER } from '../core/aws-timeouts.ts';
import { config } from '../core/config.ts';
import { queueDefinitions, type QueueId } from '../core/queues.ts';

/**
 * The one queue client (SQS in the cloud, the emulator locally) and the queues' URLs. Sending
 * (send.ts) and hiding a received message (visibility.ts) are modules of their own, so a function's
 * bundle, and the rights the stack checks against it, hold only the calls it makes.
 */
let client: SQSClient | undefined;
export const sqs = () => (client ??= new SQSClient({ requestHandler: AWS_REQUEST_HANDLER }));

export function queueUrl(id: QueueId): string {
  const { configKey } = queueDefinitions.find((queue) => queue.id === id) as (typeof queueDefinitions)[number];
  const url = config()[configKey];
  if (!url) throw new Error(`${configKey} is not configured`);
  return url;
}
