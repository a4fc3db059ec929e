import { ChangeMessageVisibilityCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { WebhookEventRef } from '../store/webhook-events.ts';
import { webhookQueueUrl } from './queue-url.ts';
import { AWS_REQUEST_HANDLER } from '../aws-timeouts.ts';

/** What the delivery worker does with the messages it receives (it sends none). */
let client: SQSClient | undefined;

/** Hides a received message for `seconds`: the queue hands it back then, for the next attempt. */
export async function redeliverAfter(receiptHandle: string, seconds: number): Promise<void> {
  client ??= new SQSClient({ requestHandler: AWS_REQUEST_HANDLER });
  await client.send(new ChangeMessageVisibilityCommand({ QueueUrl: webhookQueueUrl(), ReceiptHandle: receiptHandle, VisibilityTimeout: seconds }));
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
