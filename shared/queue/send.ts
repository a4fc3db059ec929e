import { SendMessageCommand } from '@aws-sdk/client-sqs';
import type { QueueId } from '../core/queues.ts';
import { queueUrl, sqs } from './connection.ts';
import { type QueueMessage, queueMessages } from './messages.ts';

/** SQS delays a message by 15 minutes at most; a longer wait is made of several. */
export const MAX_DELAY_SECONDS = 900;

/**
 * Sends `body`, a message of the queue's schema (messages.ts), as JSON to one of the queues of core/queues.ts. `groupId` makes a standard queue a fair
 * queue (one group's backlog does not hold up the others); `delaySeconds` is capped at MAX_DELAY_SECONDS.
 */
export async function sendMessage<Q extends QueueId>(id: Q, body: QueueMessage<Q>, options: { groupId?: string; delaySeconds?: number } = {}): Promise<void> {
  queueMessages[id].parse(body); // what the worker will parse: a sender's mistake fails here, not as a dropped message
  const delaySeconds = Math.min(MAX_DELAY_SECONDS, Math.max(0, Math.ceil(options.delaySeconds ?? 0)));
  await sqs().send(
    new SendMessageCommand({
      QueueUrl: queueUrl(id),
      MessageBody: JSON.stringify(body),
      ...(options.groupId ? { MessageGroupId: options.groupId } : {}),
      ...(delaySeconds > 0 ? { DelaySeconds: delaySeconds } : {}),
    }),
  );
}
