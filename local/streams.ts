import { join } from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import type { WorkerDeclaration } from '../shared/core/function-declaration.ts';

/**
 * The table's stream, locally: dynalite has none, so each stream worker's selection (a partition and a
 * flag, as its cloud filter names them) is polled every POLL_MS, and what the poll finds is handed to the
 * worker as stream records. The worker clears the flag of what it handled, as it does in the cloud; what
 * it reports failed keeps its flag and is handed again at the next poll.
 */
const POLL_MS = 300;
const projectRoot = fileURLToPath(new URL('../', import.meta.url));

export function startStreamPollers(workers: readonly WorkerDeclaration[]): () => Promise<void> {
  let running = true;
  const loops = workers
    .filter((worker) => worker.consumesStream)
    .map(async (worker) => {
      const { pk, flag } = worker.consumesStream as NonNullable<WorkerDeclaration['consumesStream']>;
      const { handler } = (await import(pathToFileURL(join(projectRoot, worker.entry)).href)) as {
        handler: (event: DynamoDBStreamEvent) => Promise<DynamoDBBatchResponse>;
      };
      const { documentStore, mainTableName } = await import('../shared/store/client.ts');
      while (running) {
        try {
          const { Items = [] } = await documentStore().send(
            new QueryCommand({
              TableName: mainTableName(),
              KeyConditionExpression: 'pk = :pk',
              FilterExpression: '#flag = :on',
              ExpressionAttributeNames: { '#flag': flag },
              ExpressionAttributeValues: { ':pk': pk, ':on': true },
            }),
          );
          if (Items.length > 0) {
            await handler({
              Records: Items.map((item, index) => ({
                eventName: 'INSERT',
                eventSource: 'aws:dynamodb',
                dynamodb: {
                  Keys: marshall({ pk: item.pk, sk: item.sk }) as Record<string, AttributeValue>,
                  NewImage: marshall(item) as Record<string, AttributeValue>,
                  SequenceNumber: String(index),
                },
              })) as DynamoDBStreamEvent['Records'],
            });
          }
        } catch (error) {
          if (running) console.error(`local stream of ${worker.operation}: ${(error as Error).message}`);
        }
        await new Promise((resolve) => setTimeout(resolve, POLL_MS).unref());
      }
    });
  return async () => {
    running = false;
    await Promise.race([Promise.allSettled(loops), new Promise((resolve) => setTimeout(resolve, 1_000).unref())]);
  };
}
