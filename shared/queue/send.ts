import { SendMessageCommand } from '@aws-sdk/client-sqs';
import type { QueueId } from '../core/queues.ts';
import { queueUrl, sqs } from './connection.ts';

/** SQS delays a message by 15 minutes at most; a longer wait is made of several. */
export const MAX_DELAY_SECONDS = 900;

/**
 * Sends `body` as JSON to one of the queues of core/queues.ts. `groupId` makes a standard queue a fair
 * queue (one group's backlog does not hold up the others); `delaySeconds` is capped at MAX_DELAY_SECONDS.
 */
export async function sendMessage(id: QueueId, body: object, options: { groupId?: string; delaySeconds?: number } = {}): Promise<void> {
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
