import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { AuditDraft, AuditToStore } from '../core/audit.ts';
import { writeAuditedIfConditionHolds } from './audit-event-writes.ts';
import { mainTableName } from './client.ts';
import { seal } from './sealing.ts';
import { secretOwner, type TenantSettings } from './tenant-settings.ts';
import { keys } from './keys.ts';

/**
 * Changing a tenant's settings (tenant-settings.ts reads them): written only if the item is still at
 * `readVersion` (undefined: never versioned), so a concurrent change is never overwritten; false when
 * another write came first (the caller reads again and retries).
 */
export function saveTenantSettings(tenantId: string, settings: TenantSettings, readVersion: number | undefined, audit: AuditToStore[]): Promise<boolean> {
  return writeAuditedIfConditionHolds(
    new PutCommand({
      TableName: mainTableName(),
      Item: {
        ...keys.settings(tenantId),
        redirectUris: settings.redirectUris,
        ...(settings.webhook ? { webhook: settings.webhook } : {}),
        ...(settings.agents ? { agents: settings.agents } : {}),
        version: (readVersion ?? 0) + 1,
      },
      ConditionExpression: readVersion === undefined ? 'attribute_not_exists(version)' : 'version = :version',
      ...(readVersion === undefined ? {} : { ExpressionAttributeValues: { ':version': readVersion } }),
    }),
    audit,
  );
}

export const sealWebhookSecret = (tenantId: string, secret: string) => seal(secret, secretOwner(tenantId));

/**
 * Disables the webhook at `url` (its receiver answered 410), unless the tenant has set another since;
 * the service's own settings change, audited as such.
 */
export function disableWebhook(tenantId: string, url: string, at: string): Promise<boolean> {
  const audit: AuditDraft = {
    tenantId,
    action: 'settings.updated',
    target: { type: 'settings', id: 'tenant' },
    changes: { 'webhook.disabledAt': { from: null, to: at } },
  };
  return writeAuditedIfConditionHolds(
    new UpdateCommand({
      TableName: mainTableName(),
      Key: keys.settings(tenantId),
      // a version step too: an update_settings that read the settings before this does not write over it
      UpdateExpression: 'SET webhook.disabledAt = :at ADD version :one',
      ConditionExpression: 'webhook.#url = :url',
      ExpressionAttributeNames: { '#url': 'url' },
      ExpressionAttributeValues: { ':at': at, ':url': url, ':one': 1 },
    }),
    audit,
  );
}
