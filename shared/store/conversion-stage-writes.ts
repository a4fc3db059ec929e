import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { documentStore, mainTableName } from './client.ts';
import type { StoredStages } from './conversion-stages.ts';
import { keys } from './keys.ts';

/** Replaces a user's CRM funnel (conversion-stages.ts says what it holds). */
export async function putConversionStages(tenantId: string, userId: string, stages: StoredStages): Promise<void> {
  await documentStore().send(new PutCommand({ TableName: mainTableName(), Item: { ...keys.conversionStages(tenantId, userId), ...stages } }));
}
