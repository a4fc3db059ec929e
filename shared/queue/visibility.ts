import { ChangeMessageVisibilityCommand } from '@aws-sdk/client-sqs';
import type { QueueId } from '../core/queues.ts';
import { queueUrl, sqs } from './connection.ts';

/** Hides a received message for `seconds`: the queue hands it back then (a consumer's retry delay). */
export async function hideMessage(id: QueueId, receiptHandle: string, seconds: number): Promise<void> {
  await sqs().send(new ChangeMessageVisibilityCommand({ QueueUrl: queueUrl(id), ReceiptHandle: receiptHandle, VisibilityTimeout: seconds }));
}
