import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { HistoryEntry, OptimizationRecord } from '../schemas/optimization.ts';
import { documentStore, mainTableName, queryItems } from './client.ts';
import { decodeCursor, encodeCursor } from './cursor.ts';
import { keys } from './keys.ts';

/**
 * A campaign's optimization record as a chain of items, one per history entry, numbered in order:
 *   TENANT#<t>#USER#<u>#CAMPAIGN#<campaignId> / ENTRY#<sequence, 12 digits>
 * Each item holds its entry and the campaign's fields as that call left them, plus the newest entry
 * timestamp so far. Appending is one conditional put of the next number: the campaign's fields change
 * exactly when the entry is stored (there is no second item to half-update), and a concurrent append
 * that took the number first makes this one retry on top of it. The history grows without bound and
 * is read newest first, a page at a time.
 */
/** the entries' JSON in one answer: a page stays well inside Lambda's 6 MB response limit */
export const HISTORY_PAGE_BYTES = 4 * 1024 * 1024;

export interface EntryItem {
  pk: string;
  sk: string;
  entry: HistoryEntry;
  campaignName: string;
  platform: string;
  optimizationStatus: string;
  startDate: number;
  newestTimestamp: number;
}

/** The record's entries, newest first: one page of DynamoDB's. */
function newestEntries(pk: string, options: { Limit?: number; ConsistentRead?: boolean; ExclusiveStartKey?: Record<string, unknown> } = {}) {
  return documentStore().send(
    new QueryCommand({
      TableName: mainTableName(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :entry)',
      ExpressionAttributeValues: { ':pk': pk, ':entry': keys.historyEntryPrefix },
      ScanIndexForward: false,
      ...options,
    }),
  );
}

export async function latestItem(pk: string): Promise<EntryItem | undefined> {
  const page = await newestEntries(pk, { Limit: 1, ConsistentRead: true });
  return page.Items?.[0] as EntryItem | undefined;
}

export interface HistoryPage {
  campaign: OptimizationRecord;
  paging: { next?: string };
}

/** The record with its newest entries up to HISTORY_PAGE_BYTES (oldest first), and a cursor to older ones. */
export async function findOptimizationRecord(tenantId: string, userId: string, campaignId: string, pagination = ''): Promise<HistoryPage | undefined> {
  const pk = keys.historyPk(tenantId, userId, campaignId);
  const before = pagination ? decodeCursor(pagination, /^ENTRY#\d{12}$/) : undefined; // the number of the oldest entry a page showed
  const latest = await latestItem(pk);
  if (!latest) return undefined;

  const items: EntryItem[] = [];
  let bytes = 0;
  let more = false;
  const entries = queryItems({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :entry)',
    ExpressionAttributeValues: { ':pk': pk, ':entry': keys.historyEntryPrefix },
    ScanIndexForward: false,
    ...(before ? { ExclusiveStartKey: { pk, sk: before } } : {}),
  });
  for await (const item of entries as AsyncGenerator<EntryItem>) {
    const size = Buffer.byteLength(JSON.stringify(item.entry));
    if (items.length > 0 && bytes + size > HISTORY_PAGE_BYTES) {
      more = true;
      break;
    }
    items.push(item);
    bytes += size;
  }
  const oldest = items.at(-1);

  return {
    campaign: {
      campaignId,
      campaignName: latest.campaignName,
      startDate: Number(latest.startDate),
      timestamp: Number(latest.newestTimestamp),
      optimizationStatus: latest.optimizationStatus,
      platform: latest.platform,
      history: items.reverse().map((item) => item.entry),
    },
    paging: more && oldest ? { next: encodeCursor(oldest.sk) } : {},
  };
}
