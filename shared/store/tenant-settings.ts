import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { AgentSettings } from '../schemas/agents.ts';
import type { Settings } from '../schemas/tenant.ts';
import { DEFAULT_AGENT_WRITE_MODE, type SubscribableEventType, WEBHOOK_EVENT_TYPES } from '../schemas/tenant-values.ts';
import { documentStore, mainTableName } from './client.ts';
import { open } from './sealing.ts';
import { keys } from './keys.ts';

/**
 * A tenant's settings, one item: TENANT#<tenantId> / SETTINGS. The webhook secret is sealed like the
 * platform tokens, bound to its tenant, and opened only to sign a delivery.
 */
export interface StoredWebhook {
  url: string;
  /** absent: every event type */
  events?: SubscribableEventType[];
  sealedSecret: string;
  /** set when the receiver answered 410 Gone; setting the webhook again clears it */
  disabledAt?: string;
}

export interface TenantSettings {
  redirectUris: string[];
  webhook?: StoredWebhook;
  /** absent: the defaults (writes confirmed, no browser origin) */
  agents?: AgentSettings;
}

export const DEFAULT_AGENT_SETTINGS: AgentSettings = { writes: DEFAULT_AGENT_WRITE_MODE, allowedOrigins: [] };

/** The settings as read, with the version every change of the item counts up (absent: never written). */
export interface VersionedSettings extends TenantSettings {
  version?: number;
}

export const secretOwner = (tenantId: string) => `${tenantId}/webhook/secret`;

export async function loadTenantSettings(tenantId: string): Promise<VersionedSettings> {
  const { Item } = await documentStore().send(new GetCommand({ TableName: mainTableName(), Key: keys.settings(tenantId), ConsistentRead: true }));
  return settingsOfItem(Item);
}

/** The settings an item holds (absent: none set yet). */
export function settingsOfItem(Item: Record<string, unknown> | undefined): VersionedSettings {
  return {
    redirectUris: (Item?.redirectUris as string[] | undefined) ?? [],
    ...(Item?.webhook ? { webhook: Item.webhook as StoredWebhook } : {}),
    ...(Item?.agents ? { agents: Item.agents as AgentSettings } : {}),
    ...(typeof Item?.version === 'number' ? { version: Item.version } : {}),
  };
}

export const openWebhookSecret = (tenantId: string, webhook: StoredWebhook) => open(webhook.sealedSecret, secretOwner(tenantId));

/** What the API shows: never the secret. */
export function settingsView(settings: TenantSettings): Settings {
  const { webhook } = settings;
  return {
    redirectUris: settings.redirectUris,
    webhook: webhook ? { url: webhook.url, events: webhook.events ?? [...WEBHOOK_EVENT_TYPES], ...(webhook.disabledAt ? { disabled: true } : {}) } : null,
    agents: settings.agents ?? DEFAULT_AGENT_SETTINGS,
  };
}
