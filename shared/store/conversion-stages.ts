import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { ConversionStages, StageMapping } from '../schemas/conversions.ts';
import { documentStore, mainTableName } from './client.ts';
import { keys } from './keys.ts';

/**
 * A user's CRM funnel mapped to the platforms' destinations (docs/conversions.md), one item beside the user:
 *   TENANT#<t>#USER#<u> / CONVERSION_STAGES
 * Each search-ads stage keeps the action's click-through window as the platform stated it when the
 * stages were set, so that an older event is never sent. Reads are here; the write in
 * conversion-stage-writes.ts, so a read-only function's bundle holds no write.
 */
export type StoredStage = StageMapping & { searchads?: StageMapping['searchads'] & { lookbackDays?: number } };

export interface StoredStages {
  crmName: string;
  stages: StoredStage[];
  updatedAt: string;
}

export async function findConversionStages(tenantId: string, userId: string): Promise<StoredStages | undefined> {
  const { Item } = await documentStore().send(
    new GetCommand({ TableName: mainTableName(), Key: keys.conversionStages(tenantId, userId), ConsistentRead: true }),
  );
  if (!Item) return undefined;
  return { crmName: String(Item.crmName), stages: Item.stages as StoredStage[], updatedAt: String(Item.updatedAt) };
}

/** The stages as a client sees them: without what the service keeps for itself. */
export function stagesView(stored: StoredStages | undefined): ConversionStages {
  if (!stored) return { stages: [] };
  return {
    crmName: stored.crmName,
    stages: stored.stages.map(({ searchads, ...stage }) => ({
      ...stage,
      ...(searchads ? { searchads: { conversionActionId: searchads.conversionActionId } } : {}),
    })),
    updatedAt: stored.updatedAt,
  };
}
