import { mkdirSync } from 'node:fs';
import { startEmulatorThread } from './emulator-thread.ts';
import { CreateTableCommand, DescribeTableCommand, type DynamoDBClient, UpdateTableCommand, UpdateTimeToLiveCommand } from '@aws-sdk/client-dynamodb';
import { type PutListener, startTransactionFront } from './dynamo-transactions.ts';
import { tableDefinitions } from '../shared/store/tables.ts';

/** Table names the local stack and the admin CLI use for the local data folder. */
export const LOCAL_TABLE_NAMES = {
  TABLE_NAME: 'ad-campaign-api-local-main',
  IDEMPOTENCY_TABLE_NAME: 'ad-campaign-api-local-idempotency',
} as const;

/**
 * dynalite persisting under `directory` (LevelDB), on a thread of its own (local/dynalite-thread.ts), with
 * transactions in front of it: DynamoDB's API on loopback. `onPut` hears of every item written by a put
 * (the local stream, local/streams.ts).
 */
export async function startDynalite(directory: string, onPut?: PutListener): Promise<{ endpoint: string; close(): Promise<void> }> {
  mkdirSync(directory, { recursive: true });
  const dynalite = await startEmulatorThread(new URL('./dynalite-thread.ts', import.meta.url), { directory });
  const front = await startTransactionFront(`http://127.0.0.1:${dynalite.port}`, onPut);
  return {
    endpoint: front.endpoint,
    close: async () => {
      await front.close();
      await dynalite.close();
    },
  };
}

/** Creates every table of shared/store/tables.ts that does not exist yet, named by the environment. */
export async function ensureTables(client: DynamoDBClient, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  for (const table of tableDefinitions) {
    const TableName = env[table.configKey];
    if (!TableName) throw new Error(`${table.configKey} is not set`);
    const indexes = (table.indexes ?? []).map((index) => ({
      IndexName: index.name,
      KeySchema: [
        { AttributeName: index.partitionKey, KeyType: 'HASH' as const },
        { AttributeName: index.sortKey, KeyType: 'RANGE' as const },
      ],
      Projection: { ProjectionType: 'ALL' as const },
    }));
    const indexAttributes = (table.indexes ?? []).flatMap((index) => [
      { AttributeName: index.partitionKey, AttributeType: 'S' as const },
      { AttributeName: index.sortKey, AttributeType: 'N' as const },
    ]);
    try {
      const { Table } = await client.send(new DescribeTableCommand({ TableName }));
      // a data folder from before an index was added: the index is added to it
      for (const index of indexes.filter((wanted) => !Table?.GlobalSecondaryIndexes?.some((held) => held.IndexName === wanted.IndexName)))
        await client.send(new UpdateTableCommand({ TableName, AttributeDefinitions: indexAttributes, GlobalSecondaryIndexUpdates: [{ Create: index }] }));
      continue;
    } catch (error) {
      if ((error as Error).name !== 'ResourceNotFoundException') throw error;
    }
    const keys = [{ name: table.partitionKey, type: 'HASH' as const }, ...(table.sortKey ? [{ name: table.sortKey, type: 'RANGE' as const }] : [])];
    await client.send(
      new CreateTableCommand({
        TableName,
        BillingMode: 'PAY_PER_REQUEST',
        KeySchema: keys.map((key) => ({ AttributeName: key.name, KeyType: key.type })),
        AttributeDefinitions: [...keys.map((key) => ({ AttributeName: key.name, AttributeType: 'S' as const })), ...indexAttributes],
        ...(indexes.length > 0 ? { GlobalSecondaryIndexes: indexes } : {}),
      }),
    );
    if (table.timeToLiveAttribute) {
      await client
        .send(new UpdateTimeToLiveCommand({ TableName, TimeToLiveSpecification: { AttributeName: table.timeToLiveAttribute, Enabled: true } }))
        .catch(() => undefined); // dynalite does not implement TTL; records still carry their expiry
    }
  }
}
