import { randomUUID } from 'node:crypto';
import { PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { clock } from '../clock.ts';
import type { HistoryEntry, OptimizationRecord, RecordOptimizationInput } from '../schemas/optimization.ts';
import { documentStore, mainTableName } from './client.ts';

/**
 * A campaign's optimization record: one META item for the campaign's fields and one item per
 * history entry, so the history grows without hitting DynamoDB's item size limit.
 *   TENANT#<t>#USER#<u>#CAMPAIGN#<campaignId> / META
 *   TENANT#<t>#USER#<u>#CAMPAIGN#<campaignId> / ENTRY#<stored at, ISO>#<uuid>
 */
const recordKey = (tenantId: string, userId: string, campaignId: string) => `TENANT#${tenantId}#USER#${userId}#CAMPAIGN#${campaignId}`;

export async function appendOptimizationEntry(tenantId: string, input: RecordOptimizationInput, now = clock.date()): Promise<HistoryEntry> {
  const pk = recordKey(tenantId, input.userId, input.campaignId);
  const millis = now.getTime();
  const entry: HistoryEntry = {
    ...input.entry,
    lastUpdate: { _seconds: Math.floor(millis / 1000), _nanoseconds: (millis % 1000) * 1_000_000 },
  };
  const TableName = mainTableName();
  const store = documentStore();
  // The campaign's fields first, then the entry: a failure in between leaves no orphan entry, and
  // the retried call writes the entry once.
  await store.send(
    new UpdateCommand({
      TableName,
      Key: { pk, sk: 'META' },
      UpdateExpression:
        'SET campaignName = :name, #platform = :platform, optimizationStatus = :status, startDate = :start, createdAt = if_not_exists(createdAt, :now)',
      ExpressionAttributeNames: { '#platform': 'platform' },
      ExpressionAttributeValues: {
        ':name': input.campaignName,
        ':platform': input.platform,
        ':status': input.optimizationStatus,
        ':start': input.startDate,
        ':now': now.toISOString(),
      },
    }),
  );
  await store.send(
    new PutCommand({
      TableName,
      Item: { pk, sk: `ENTRY#${now.toISOString()}#${randomUUID()}`, entry },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
  return entry;
}

export async function findOptimizationRecord(tenantId: string, userId: string, campaignId: string): Promise<OptimizationRecord | undefined> {
  const items: Array<Record<string, unknown>> = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await documentStore().send(
      new QueryCommand({
        TableName: mainTableName(),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': recordKey(tenantId, userId, campaignId) },
        ExclusiveStartKey,
      }),
    );
    items.push(...(page.Items ?? []));
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);

  const meta = items.find((item) => item.sk === 'META');
  if (!meta) return undefined;
  const history = items.filter((item) => String(item.sk).startsWith('ENTRY#')).map((item) => item.entry as HistoryEntry);
  return {
    campaignId,
    campaignName: String(meta.campaignName),
    startDate: Number(meta.startDate),
    timestamp: history.reduce((newest, entry) => Math.max(newest, entry.timestamp), 0),
    optimizationStatus: String(meta.optimizationStatus),
    platform: String(meta.platform),
    history,
  };
}
