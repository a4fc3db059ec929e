/**
 * The values of a tenant's settings that code reads without their schemas (the settings store, the
 * webhook emitters): here, with no zod, so a function that only reads settings bundles none of the
 * settings' validators (docs/deploying.md). tenant.ts and agents.ts build the schemas on them.
 */

/** docs/decisions.md "Webhooks": every event type a tenant may subscribe to. */
export const WEBHOOK_EVENT_TYPES = [
  'connection.connected',
  'connection.reconnect_required',
  'connection.disconnected',
  'audience_job.succeeded',
  'audience_job.failed',
  'ad_media.ready',
  'ad_media.failed',
  'campaign_launch.succeeded',
  'campaign_launch.failed',
  'optimization.applied',
  'optimization.rule_disabled',
  'optimization.proposed',
  'optimization.matched',
  'searchads.declaration_required',
  'lead.received',
  'leads.access_missing',
  'leads_backfill.succeeded',
  'leads_backfill.failed',
  'rule_undo.succeeded',
  'rule_undo.failed',
  'conversion.delivered',
  'conversion.rejected',
  'conversion.unknown',
  'conversions_job.succeeded',
  'conversions_job.failed',
  'report.ready',
  'report_export.failed',
] as const;
export type SubscribableEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
export type WebhookEventType = SubscribableEventType | 'webhook.test';

/** docs/agents.md: what AI agents' writes do, and which browser origins may call. */
export const AGENT_WRITE_MODES = ['confirm', 'apply', 'off'] as const;
export type AgentWriteMode = (typeof AGENT_WRITE_MODES)[number];
export const DEFAULT_AGENT_WRITE_MODE: AgentWriteMode = 'confirm';
export const MAX_ALLOWED_ORIGINS = 20;
