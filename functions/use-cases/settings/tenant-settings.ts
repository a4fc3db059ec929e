import { randomBytes } from 'node:crypto';
import { type AuditChanges, type AuditToStore, type AuditUnit, unchanged } from '../../../shared/core/audit.ts';
import { InvalidRequest } from '../../../shared/core/errors.ts';
import type { UpdateSettingsInput } from '../../../shared/schemas/tenant.ts';
import { LOST_RACE, retryOnConflict } from '../../../shared/store/client.ts';
import { saveTenantSettings, sealWebhookSecret } from '../../../shared/store/tenant-settings-writes.ts';
import { DEFAULT_AGENT_SETTINGS, loadTenantSettings, settingsView, type TenantSettings } from '../../../shared/store/tenant-settings.ts';
import { checkWebhookUrl } from '../../../shared/webhooks/receiver-address.ts';

/** Standard Webhooks' secret form: `whsec_` and the base64 of 32 random bytes. */
const newWebhookSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

/**
 * A field left out keeps its value. A webhook set for the first time, or `rotateWebhookSecret`,
 * issues a secret, answered once; setting the webhook again keeps its secret and re-enables it.
 */
export async function updateTenantSettings(tenantId: string, input: UpdateSettingsInput, audit: AuditUnit) {
  if (input.webhook) await checkWebhookUrl(input.webhook.url);
  // read, change, write if unchanged since: a concurrent update is read again, never overwritten, and the secret answered is the one stored
  return retryOnConflict('The tenant’s settings', () => applySettingsChange(tenantId, input, audit));
}

async function applySettingsChange(tenantId: string, input: UpdateSettingsInput, audit: AuditUnit) {
  const { version, ...current } = await loadTenantSettings(tenantId);
  const next: TenantSettings = {
    ...current,
    ...(input.redirectUris !== undefined ? { redirectUris: input.redirectUris } : {}),
    ...(input.agents ? { agents: { ...(current.agents ?? DEFAULT_AGENT_SETTINGS), ...input.agents } } : {}),
  };
  let webhookSecret: string | undefined;
  if (input.webhook === null) delete next.webhook;
  if (input.webhook) {
    if (!current.webhook) webhookSecret = newWebhookSecret();
    next.webhook = {
      url: input.webhook.url,
      ...(input.webhook.events ? { events: input.webhook.events } : {}),
      sealedSecret: current.webhook?.sealedSecret ?? sealWebhookSecret(tenantId, webhookSecret as string),
    };
  }
  if (input.rotateWebhookSecret) {
    if (!next.webhook)
      throw new InvalidRequest('There is no webhook whose secret could be rotated; set one with `webhook`.', [
        { path: 'rotateWebhookSecret', message: 'no webhook is set' },
      ]);
    webhookSecret = newWebhookSecret();
    next.webhook = { ...next.webhook, sealedSecret: sealWebhookSecret(tenantId, webhookSecret) };
  }
  const answer = { settings: settingsView(next), ...(webhookSecret ? { webhookSecret } : {}) };
  // a rotation is always its own event; the other changes are settings.updated; a call that changes nothing writes and records nothing
  const changes = settingsChanges(current, next);
  const updated = Object.keys(changes).length > 0 ? audit.event({}, { changes }) : undefined;
  const rotated: AuditToStore | undefined = input.rotateWebhookSecret
    ? { tenantId, action: 'webhook_secret.rotated', target: { type: 'webhook_secret', id: 'webhook' } }
    : undefined;
  const events = [updated, rotated].filter((event) => event !== undefined);
  if (events.length > 0 && !(await saveTenantSettings(tenantId, next, version, events))) return LOST_RACE;
  // the events were stored with the settings; no settings.updated is left to record when nothing but the secret changed
  return updated ? answer : unchanged(answer);
}

/**
 * What an update changed, for the audit log: event types and whether a webhook is set, by value; the
 * URLs (which may carry a client's tokens) and the secret by name only.
 */
function settingsChanges(before: TenantSettings, after: TenantSettings): AuditChanges {
  const changes: AuditChanges = {};
  if (JSON.stringify(before.redirectUris) !== JSON.stringify(after.redirectUris)) changes.redirectUris = {};
  if (Boolean(before.webhook) !== Boolean(after.webhook)) changes.webhook = { from: before.webhook ? 'set' : 'none', to: after.webhook ? 'set' : 'none' };
  if (before.webhook && after.webhook && before.webhook.url !== after.webhook.url) changes['webhook.url'] = {};
  const eventsBefore = before.webhook?.events ?? null;
  const eventsAfter = after.webhook?.events ?? null;
  if (before.webhook && after.webhook && JSON.stringify(eventsBefore) !== JSON.stringify(eventsAfter))
    changes['webhook.events'] = { from: eventsBefore, to: eventsAfter };
  if (before.webhook?.disabledAt && after.webhook && !after.webhook.disabledAt) changes['webhook.disabledAt'] = { from: before.webhook.disabledAt, to: null };
  const agentsBefore = before.agents ?? DEFAULT_AGENT_SETTINGS;
  const agentsAfter = after.agents ?? DEFAULT_AGENT_SETTINGS;
  if (agentsBefore.writes !== agentsAfter.writes) changes['agents.writes'] = { from: agentsBefore.writes, to: agentsAfter.writes };
  if (JSON.stringify(agentsBefore.allowedOrigins) !== JSON.stringify(agentsAfter.allowedOrigins))
    changes['agents.allowedOrigins'] = { from: agentsBefore.allowedOrigins, to: agentsAfter.allowedOrigins };
  return changes;
}
