import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { loadAppCredentials } from '../../../shared/secrets/app-credentials.ts';
import { systemActor, withAuditScope } from '../../../shared/core/audit.ts';
import { log, withRequestLogger } from '../../../shared/core/logger.ts';
import { attemptDelivery } from '../../../shared/webhooks/deliver.ts';
import { hideMessage } from '../../../shared/queue/visibility.ts';
import { parseDeliveryMessage } from '../../../shared/webhooks/queue.ts';
import { declaration } from './declaration.ts';

/**
 * The webhook delivery worker (SQS, partial batch responses). A message whose event needs another
 * attempt is hidden until then and reported failed, so the queue hands it back; one that throws is
 * handed back after the queue's visibility timeout; a message that keeps failing ends in the
 * dead-letter queue, while its event stays pending in the store for the sweep.
 */
export async function handler(event: SQSEvent): Promise<SQSBatchResponse> {
  await loadAppCredentials();
  const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
  // each record alone: one slow receiver (10 s at most) does not hold up the others
  await Promise.all(
    event.Records.map((record) =>
      withRequestLogger({ requestId: record.messageId, operation: declaration.operation }, async () => {
        const ref = parseDeliveryMessage(record.body);
        if (!ref) return log().error('a delivery message that names no event was dropped', { messageId: record.messageId });
        try {
          const { retryAfterSeconds } = await withAuditScope({ actor: systemActor(declaration.operation) }, () => attemptDelivery(ref));
          if (retryAfterSeconds === undefined) return;
          await hideMessage('WebhookDeliveries', record.receiptHandle, retryAfterSeconds);
          batchItemFailures.push({ itemIdentifier: record.messageId });
        } catch (error) {
          log().error('webhook delivery failed unexpectedly; the queue will hand it back', { error: (error as Error).name });
          batchItemFailures.push({ itemIdentifier: record.messageId });
        }
      }),
    ),
  );
  return { batchItemFailures };
}
