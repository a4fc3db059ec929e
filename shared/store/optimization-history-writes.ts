import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { clock } from '../clock.ts';
import type { HistoryEntry, RecordOptimizationInput } from '../schemas/optimization.ts';
import { documentStore, mainTableName } from './client.ts';
import { entryKey, latestItem, recordKey, type EntryItem } from './optimization-history.ts';

/** Appending to a campaign's optimization history (the layout and the reads are optimization-history.ts). */
const APPEND_ATTEMPTS = 5;

export async function appendOptimizationEntry(tenantId: string, input: RecordOptimizationInput, now = clock.date()): Promise<HistoryEntry> {
  const pk = recordKey(tenantId, input.userId, input.campaignId);
  const millis = now.getTime();
  const entry: HistoryEntry = {
    ...input.entry,
    lastUpdate: { _seconds: Math.floor(millis / 1000), _nanoseconds: (millis % 1000) * 1_000_000 },
  };
  for (let attempt = 1; ; attempt++) {
    const latest = await latestItem(pk);
    const sequence = latest ? Number(latest.sk.slice('ENTRY#'.length)) + 1 : 1;
    const item: EntryItem = {
      pk,
      sk: entryKey(sequence),
      entry,
      campaignName: input.campaignName,
      platform: input.platform,
      optimizationStatus: input.optimizationStatus,
      startDate: input.startDate,
      newestTimestamp: Math.max(latest?.newestTimestamp ?? entry.timestamp, entry.timestamp),
    };
    try {
      await documentStore().send(new PutCommand({ TableName: mainTableName(), Item: item, ConditionExpression: 'attribute_not_exists(sk)' }));
      return entry;
    } catch (error) {
      if ((error as Error).name !== 'ConditionalCheckFailedException' || attempt >= APPEND_ATTEMPTS) throw error;
    }
  }
}

