import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { webhookQueueUrl } from './queue-url.ts';
import type { WebhookEventRef } from '../store/webhook-events.ts';

/** Queues a webhook event's delivery: the message carries only where the event is stored. */
let client: SQSClient | undefined;

export async function queueDelivery(ref: WebhookEventRef): Promise<void> {
  client ??= new SQSClient({});
  await client.send(new SendMessageCommand({ QueueUrl: webhookQueueUrl(), MessageBody: JSON.stringify(ref) }));
}
