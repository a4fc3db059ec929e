import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { documentStore, mainTableName } from './client.ts';
import { seal } from './sealing.ts';
import { secretOwner, settingsKey, type TenantSettings } from './tenant-settings.ts';

/** Changing a tenant's settings (tenant-settings.ts reads them). */
export async function saveTenantSettings(tenantId: string, settings: TenantSettings): Promise<void> {
  await documentStore().send(new PutCommand({ TableName: mainTableName(), Item: { ...settingsKey(tenantId), ...settings } }));
}

export const sealWebhookSecret = (tenantId: string, secret: string) => seal(secret, secretOwner(tenantId));
