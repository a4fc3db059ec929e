import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentStore, mainTableName, writeIfConditionHolds } from './client.ts';
import { seal } from './sealing.ts';
import { secretOwner, settingsKey, type TenantSettings } from './tenant-settings.ts';

/** Changing a tenant's settings (tenant-settings.ts reads them). */
export async function saveTenantSettings(tenantId: string, settings: TenantSettings): Promise<void> {
  await documentStore().send(new PutCommand({ TableName: mainTableName(), Item: { ...settingsKey(tenantId), ...settings } }));
}

export const sealWebhookSecret = (tenantId: string, secret: string) => seal(secret, secretOwner(tenantId));

/** Disables the webhook at `url` (its receiver answered 410), unless the tenant has set another since. */
export function disableWebhook(tenantId: string, url: string, at: string): Promise<boolean> {
  return writeIfConditionHolds(
    new UpdateCommand({
      TableName: mainTableName(),
      Key: settingsKey(tenantId),
      UpdateExpression: 'SET webhook.disabledAt = :at',
      ConditionExpression: 'webhook.#url = :url',
      ExpressionAttributeNames: { '#url': 'url' },
      ExpressionAttributeValues: { ':at': at, ':url': url },
    }),
  );
}
