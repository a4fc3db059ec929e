import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { clock } from '../../../shared/core/clock.ts';
import { log, withRequestLogger } from '../../../shared/core/logger.ts';
import { FLOW_DEFINITIONS } from '../../../shared/flows/flows.ts';
import { flowOn } from '../../../shared/flows/on-table.ts';
import { flowItemOfImage } from '../../../shared/store/flow-items.ts';
import { declaration } from './declaration.ts';

/**
 * The event flows' relay: handed the items whose writer did not queue them (the table's stream,
 * filtered to those flagged `relay`), it queues each one through its flow. A record that fails is
 * reported, and the stream hands it back.
 */
export async function handler(event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> {
  return withRequestLogger({ requestId: `relay-${clock.now()}`, operation: declaration.operation }, async () => {
    const batchItemFailures: DynamoDBBatchResponse['batchItemFailures'] = [];
    for (const record of event.Records) {
      const image = record.dynamodb?.NewImage;
      const item = image ? flowItemOfImage(image) : undefined;
      const definition = item ? FLOW_DEFINITIONS[item.flow as keyof typeof FLOW_DEFINITIONS] : undefined;
      if (!item || !definition) continue;
      try {
        await flowOn(definition).relay(item);
      } catch (error) {
        log().warn('an item could not be relayed; the stream hands it back', { flow: definition.name, reason: (error as Error).name });
        batchItemFailures.push({ itemIdentifier: record.dynamodb?.SequenceNumber ?? '' });
      }
    }
    return { batchItemFailures };
  });
}
