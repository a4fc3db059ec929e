import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { webhookQueueUrl } from './queue-url.ts';
import type { WebhookEventRef } from '../store/webhook-events.ts';
import { AWS_REQUEST_HANDLER } from '../aws-timeouts.ts';

/**
 * Queues a webhook event's delivery: the message carries only where the event is stored. Its group is
 * the tenant: on a standard queue that makes it an SQS fair queue, so one tenant's backlog (a receiver
 * that hangs) does not hold up another tenant's events (docs/decisions.md, "Fair webhook delivery").
 */
let client: SQSClient | undefined;

export async function queueDelivery(ref: WebhookEventRef): Promise<void> {
  client ??= new SQSClient({ requestHandler: AWS_REQUEST_HANDLER });
  await client.send(new SendMessageCommand({ QueueUrl: webhookQueueUrl(), MessageBody: JSON.stringify(ref), MessageGroupId: ref.tenantId }));
}
