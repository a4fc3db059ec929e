import { config } from '../config.ts';

/** The webhook delivery queue's URL (SQS in the cloud, the emulator locally). */
export function webhookQueueUrl(): string {
  const url = config().WEBHOOK_QUEUE_URL;
  if (!url) throw new Error('WEBHOOK_QUEUE_URL is not configured');
  return url;
}
