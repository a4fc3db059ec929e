import { ChangeMessageVisibilityCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { config } from '../config.ts';
import type { WebhookEventRef } from '../store/webhook-events.ts';

/** The webhook delivery queue: one message per event, carrying only where the event is stored. */
let client: SQSClient | undefined;
const sqs = () => (client ??= new SQSClient({}));

function queueUrl(): string {
  const url = config().WEBHOOK_QUEUE_URL;
  if (!url) throw new Error('WEBHOOK_QUEUE_URL is not configured');
  return url;
}

export async function queueDelivery(ref: WebhookEventRef): Promise<void> {
  await sqs().send(new SendMessageCommand({ QueueUrl: queueUrl(), MessageBody: JSON.stringify(ref) }));
}

/** Hides a received message for `seconds`: it comes back then, for the next attempt. */
export async function redeliverAfter(receiptHandle: string, seconds: number): Promise<void> {
  await sqs().send(new ChangeMessageVisibilityCommand({ QueueUrl: queueUrl(), ReceiptHandle: receiptHandle, VisibilityTimeout: seconds }));
}

export function parseDeliveryMessage(body: string): WebhookEventRef | undefined {
  try {
    const parsed = JSON.parse(body) as Partial<WebhookEventRef>;
    if (typeof parsed.tenantId === 'string' && typeof parsed.sk === 'string') return { tenantId: parsed.tenantId, sk: parsed.sk };
  } catch {
    // not ours
  }
  return undefined;
}
