import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Platform } from '../core/errors.ts';
import { documentStore, mainTableName } from './client.ts';
import { keys } from './keys.ts';

/**
 * The outcomes reported for a user's leads, counted per (day, campaign, stage) (docs/reports.md,
 * "Outcomes and their cost"): one item each,
 *   TENANT#<t>#USER#<u>#OUTCOMES#<platform> / <YYYY-MM-DD>#<campaignId>#<stage>   {count}
 * added to in the transaction that stores the outcome (conversion-writes.ts), so a repeat counts
 * nothing. A report reads a range with one query.
 */
export interface OutcomeCount {
  date: string;
  campaignId: string;
  stage: string;
  count: number;
}

/** The count item's key and the update that adds one outcome to it (an item of the outcome's transaction). */
export function outcomeCountUpdate(tenantId: string, userId: string, platform: Platform, day: string, campaignId: string, stage: string) {
  return {
    TableName: mainTableName(),
    Key: { pk: keys.outcomeCountsPk(tenantId, userId, platform), sk: `${day}#${campaignId}#${stage}` },
    UpdateExpression: 'ADD #count :one',
    ExpressionAttributeNames: { '#count': 'count' },
    ExpressionAttributeValues: { ':one': 1 },
  };
}

export async function outcomeCounts(tenantId: string, userId: string, platform: Platform, startDate: string, endDate: string): Promise<OutcomeCount[]> {
  const counts: OutcomeCount[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await documentStore().send(
      new QueryCommand({
        TableName: mainTableName(),
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
        ExpressionAttributeValues: { ':pk': keys.outcomeCountsPk(tenantId, userId, platform), ':from': startDate, ':to': `${endDate}#~` },
        ConsistentRead: true,
        ...(start ? { ExclusiveStartKey: start } : {}),
      }),
    );
    for (const item of page.Items ?? []) {
      const [date, campaignId, stage] = String(item.sk).split('#') as [string, string, string];
      counts.push({ date, campaignId, stage, count: Number(item.count ?? 0) });
    }
    start = page.LastEvaluatedKey;
  } while (start);
  return counts;
}
