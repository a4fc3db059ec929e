import { join } from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import type { WorkerDeclaration } from '../shared/core/function-declaration.ts';
import { importModule } from '../shared/core/import-module.ts';
import type { PutListener } from './dynamo-transactions.ts';
import { asFunctionRun } from './clock.ts';

/**
 * The table's stream, locally: dynalite has none, so the store's front (local/dynamo-transactions.ts)
 * tells this of every item a put writes, and each stream worker is handed, as stream records, the items
 * written with its flag (the filter its cloud event source has): nothing else is read. An item is read
 * again before it is handed (the worker may have cleared its flag meanwhile, as a later image would
 * show in the cloud); what the worker reports failed is handed again a moment later. At start, the
 * items still flagged (written before a stop, as the cloud's stream keeps 24 hours of records) are
 * found once in the due index and handed first.
 */
const RETRY_MS = 300;
const BATCH_SIZE = 10;
const projectRoot = fileURLToPath(new URL('../', import.meta.url));

type Key = { pk: string; sk: string };
type StreamHandler = (event: DynamoDBStreamEvent) => Promise<DynamoDBBatchResponse>;

export interface LocalStream {
  /** what the store's front calls for each put */
  onPut: PutListener;
  /** starts handing records to the stream workers (the store must be up) */
  start(workers: readonly WorkerDeclaration[]): Promise<void>;
  stop(): Promise<void>;
}

export function localStream(): LocalStream {
  const lanes: Array<{ flag: string; waiting: Key[]; wake(): void }> = [];
  const loops: Promise<void>[] = [];
  let running = true;
  let timers: NodeJS.Timeout[] = [];

  return {
    onPut(_tableName, item) {
      for (const lane of lanes) {
        if ((item[lane.flag] as { BOOL?: boolean } | undefined)?.BOOL !== true) continue;
        const { pk, sk } = unmarshall({ pk: item.pk, sk: item.sk } as Record<string, AttributeValue>) as Key;
        lane.waiting.push({ pk, sk });
        lane.wake();
      }
    },
    async start(workers) {
      const { documentStore, mainTableName } = await import('../shared/store/client.ts');
      for (const worker of workers.filter((entry) => entry.consumesStream)) {
        const { flag } = worker.consumesStream as NonNullable<WorkerDeclaration['consumesStream']>;
        const { handler } = await importModule<{ handler: StreamHandler }>(pathToFileURL(join(projectRoot, worker.entry)).href);
        let wake: () => void = () => undefined;
        const lane = { flag, waiting: [] as Key[], wake: () => wake() };
        lanes.push(lane);
        // written before a stop and still flagged: found once, in the due index (a flagged item is always due)
        for await (const item of flaggedDueItems(flag)) lane.waiting.push({ pk: String(item.pk), sk: String(item.sk) });
        loops.push(
          (async () => {
            while (running) {
              if (lane.waiting.length === 0) {
                await new Promise<void>((resolve) => (wake = resolve));
                continue;
              }
              const batch = lane.waiting.splice(0, BATCH_SIZE);
              try {
                const images: Record<string, unknown>[] = [];
                for (const key of batch) {
                  const { Item } = await documentStore().send(new GetCommand({ TableName: mainTableName(), Key: key, ConsistentRead: true }));
                  if (Item?.[flag] === true) images.push(Item);
                }
                if (images.length === 0) continue;
                const { batchItemFailures = [] } = await asFunctionRun(() =>
                  handler({
                    Records: images.map((item, index) => ({
                      eventName: 'INSERT',
                      eventSource: 'aws:dynamodb',
                      dynamodb: {
                        Keys: marshall({ pk: item.pk, sk: item.sk }) as Record<string, AttributeValue>,
                        NewImage: marshall(item, { removeUndefinedValues: true }) as Record<string, AttributeValue>,
                        SequenceNumber: String(index),
                      },
                    })) as DynamoDBStreamEvent['Records'],
                  }),
                );
                const failed = batchItemFailures.map((failure) => images[Number(failure.itemIdentifier)]).filter(Boolean);
                if (failed.length > 0) retryLater(failed.map((item) => ({ pk: String(item?.pk), sk: String(item?.sk) })));
              } catch (error) {
                if (running) console.error(`local stream of ${worker.operation}: ${(error as Error).message}`);
                retryLater(batch);
              }
            }
          })(),
        );
        function retryLater(keys: Key[]) {
          timers.push(
            setTimeout(() => {
              lane.waiting.push(...keys);
              lane.wake();
            }, RETRY_MS).unref(),
          );
        }
      }
    },
    async stop() {
      running = false;
      for (const timer of timers) clearTimeout(timer);
      timers = [];
      for (const lane of lanes) lane.wake();
      await Promise.race([Promise.allSettled(loops), new Promise((resolve) => setTimeout(resolve, 1_000).unref())]);
    },
  };
}

/** The due items of every flow still flagged (what a stop left for the relay). */
async function* flaggedDueItems(flag: string): AsyncGenerator<Record<string, unknown>> {
  const { queryItems } = await import('../shared/store/client.ts');
  const { DUE_INDEX } = await import('../shared/store/tables.ts');
  const { FLOW_DEFINITIONS } = await import('../shared/flows/flows.ts');
  const { allDueShards } = await import('../shared/store/flow-items.ts');
  for (const name of Object.keys(FLOW_DEFINITIONS) as Array<keyof typeof FLOW_DEFINITIONS>)
    for (const shard of allDueShards(name))
      yield* queryItems({
        IndexName: DUE_INDEX.name,
        KeyConditionExpression: '#shard = :shard',
        FilterExpression: '#flag = :on',
        ExpressionAttributeNames: { '#shard': DUE_INDEX.partitionKey, '#flag': flag },
        ExpressionAttributeValues: { ':shard': shard, ':on': true },
      });
}
