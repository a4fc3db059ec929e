import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { clock } from '../../../shared/core/clock.ts';
import { config } from '../../../shared/core/config.ts';
import { log, withRequestLogger } from '../../../shared/core/logger.ts';
import { markPending } from '../../../shared/store/webhook-event-writes.ts';
import { pendingMarkerRef } from '../../../shared/store/webhook-events.ts';
import { queueDelivery } from '../../../shared/webhooks/queue.ts';
import { declaration } from './declaration.ts';

/**
 * The webhook outbox relay: handed the pending markers whose writer did not queue their event (the
 * table's stream, filtered to those), it queues each one and leaves the marker to the sweep's usual
 * threshold. A record that fails is reported, and the stream hands it back.
 */
export async function handler(event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> {
  return withRequestLogger({ requestId: `relay-${clock.now()}`, operation: declaration.operation }, async () => {
    const batchItemFailures: DynamoDBBatchResponse['batchItemFailures'] = [];
    for (const record of event.Records) {
      const ref = record.dynamodb?.NewImage ? pendingMarkerRef(record.dynamodb.NewImage) : undefined;
      if (!ref) continue;
      try {
        // unflagged first: the stream's next record of this marker is not handed here again
        await markPending(ref, clock.now() + config().WEBHOOK_SWEEP_AFTER_SECONDS * 1000);
        await queueDelivery(ref);
      } catch (error) {
        log().warn('a webhook event could not be relayed; the stream hands it back', { reason: (error as Error).name });
        batchItemFailures.push({ itemIdentifier: record.dynamodb?.SequenceNumber ?? '' });
      }
    }
    return { batchItemFailures };
  });
}
