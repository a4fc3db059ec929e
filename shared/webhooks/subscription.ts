import type { WebhookEventType } from '../schemas/tenant-values.ts';
import type { StoredWebhook } from '../store/tenant-settings.ts';

/** Whether the tenant's webhook takes events of this type (webhook.test always). */
export function subscribed(webhook: StoredWebhook | undefined, type: WebhookEventType): webhook is StoredWebhook {
  if (!webhook || webhook.disabledAt) return false;
  return type === 'webhook.test' || !webhook.events || webhook.events.includes(type);
}
