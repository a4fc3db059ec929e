import { PutCommand, type UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { clock } from '../core/clock.ts';
import type { HistoryEntry, RecordOptimizationInput } from '../schemas/optimization.ts';
import type { AuditToStore } from '../core/audit.ts';
import { sendAuditedTogether } from './audit-event-writes.ts';
import { failedCondition, LOST_RACE, mainTableName, retryOnConflict } from './client.ts';
import { latestItem, type EntryItem } from './optimization-history.ts';
import { keys } from './keys.ts';

/** The campaign's fields on its record, as the entry's writer decides them given the record's newest entry (if any). */
export type CampaignFields = Pick<EntryItem, 'campaignName' | 'platform' | 'optimizationStatus' | 'startDate'>;

/**
 * Appending to a campaign's optimization history (the layout and the reads are optimization-history.ts),
 * with the audit event of the write that caused it in the same transaction. A client's record call
 * sets the campaign's four fields; a change the service made keeps the record's name and start and
 * sets its status (`campaign` decides, from the newest entry so far).
 */
export async function appendOptimizationEntry(
  tenantId: string,
  input: RecordOptimizationInput,
  audit: AuditToStore | undefined,
  now = clock.date(),
): Promise<HistoryEntry> {
  const { campaignName, platform, optimizationStatus, startDate } = input;
  const entry = await appendHistoryEntry(
    tenantId,
    { userId: input.userId, campaignId: input.campaignId, entry: input.entry, campaign: () => ({ campaignName, platform, optimizationStatus, startDate }) },
    audit,
    now,
  );
  if (!entry) throw new Error('an entry with no other write in its transaction is always stored');
  return entry;
}

/**
 * `also`: writes stored in the same transaction (the campaign's change log, a rule action's "recorded"
 * mark). When one of their conditions fails nothing is stored and the answer is undefined: the change
 * was recorded before.
 */
export async function appendHistoryEntry(
  tenantId: string,
  input: {
    userId: string;
    campaignId: string;
    entry: Omit<HistoryEntry, 'lastUpdate'>;
    campaign: (latest: EntryItem | undefined) => CampaignFields;
    also?: Array<PutCommand | UpdateCommand>;
  },
  audit: AuditToStore | undefined,
  now = clock.date(),
): Promise<HistoryEntry | undefined> {
  const pk = keys.historyPk(tenantId, input.userId, input.campaignId);
  const millis = now.getTime();
  const entry: HistoryEntry = {
    ...input.entry,
    lastUpdate: { _seconds: Math.floor(millis / 1000), _nanoseconds: (millis % 1000) * 1_000_000 },
  };
  // the next number, taken by a conditional put: a concurrent append that took it first makes this one read again and go on top
  return retryOnConflict(`The optimization history of campaign ${input.campaignId}`, async () => {
    const latest = await latestItem(pk);
    const sequence = latest ? keys.historySequenceOf(latest.sk) + 1 : 1;
    const { campaignName, platform, optimizationStatus, startDate } = input.campaign(latest);
    const item: EntryItem = {
      pk,
      sk: keys.historyEntry(sequence),
      entry,
      campaignName,
      platform,
      optimizationStatus,
      startDate,
      newestTimestamp: Math.max(latest?.newestTimestamp ?? entry.timestamp, entry.timestamp),
    };
    try {
      await sendAuditedTogether(
        [new PutCommand({ TableName: mainTableName(), Item: item, ConditionExpression: 'attribute_not_exists(sk)' }), ...(input.also ?? [])],
        audit,
      );
      return entry;
    } catch (error) {
      const failed = failedCondition(error);
      if (failed === undefined) throw error;
      return failed === 0 ? LOST_RACE : undefined;
    }
  });
}
