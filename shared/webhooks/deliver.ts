import { clock } from '../core/clock.ts';
import { config } from '../core/config.ts';
import { log } from '../core/logger.ts';
import { disableWebhook } from '../store/tenant-settings-writes.ts';
import { openWebhookSecret } from '../store/tenant-settings.ts';
import { abandonWebhookEvent, recordAttempt, settleWebhookEvent } from '../store/webhook-event-writes.ts';
import { loadWebhookEventAndSettings, type WebhookEventRef, webhookDataOwner } from '../store/webhook-events.ts';
import { open } from '../store/sealing.ts';
import { subscribed } from './subscription.ts';
import { postWebhook } from './post.ts';
import { attemptVerdict, signedHeaders } from './attempt.ts';

/**
 * One delivery attempt of a stored event (Standard Webhooks 1.0): signed with the tenant's secret and
 * this attempt's timestamp, the same `webhook-id` every time. A 2xx is delivered; 410 disables the
 * tenant's webhook; anything else, or no answer, is tried again on the configured schedule, and after
 * the last attempt the event is failed. Returns when to try again, if at all. Two store requests: the
 * event and the settings read together, the attempt recorded with the event's next due time.
 */
export async function attemptDelivery(ref: WebhookEventRef): Promise<{ retryAfterSeconds?: number }> {
  const { event, settings } = await loadWebhookEventAndSettings(ref);
  if (!event) return {}; // gone with its tenant's data, or past its days: nothing to send
  if (event.status !== 'pending') {
    // done already (a duplicate message, or one that outran the event's last write): it leaves the due index if it is still there
    if ('dueShard' in event) await settleWebhookEvent(ref);
    return {};
  }
  const now = clock.now();
  const attemptedAt = new Date(now).toISOString();
  if (!subscribed(settings.webhook, event.type)) {
    await abandonWebhookEvent(ref);
    log().info('webhook event failed: the tenant’s webhook was removed or disabled', { eventId: event.id });
    return {};
  }
  const webhook = settings.webhook;
  const data = event.sealedData ? (JSON.parse(open(event.sealedData, webhookDataOwner(event))) as Record<string, unknown>) : event.data;
  const body = JSON.stringify({ type: event.type, timestamp: event.createdAt, data });
  const outcome = await postWebhook(webhook.url, signedHeaders(openWebhookSecret(ref.tenantId, webhook), event.id, new Date(now), body), body);

  const attempt = event.attempts + 1;
  const { status, retryAfterSeconds, gone } = attemptVerdict(outcome.status, attempt, config().WEBHOOK_RETRY_DELAYS);
  log().info('webhook attempt', { eventId: event.id, type: event.type, attempt, status: outcome.status, reason: outcome.reason, outcome: status });
  // a retry stays due past its own delay by the sweep's lease: the sweep takes it only if its message is lost
  const retryAt = retryAfterSeconds === undefined ? undefined : now + (retryAfterSeconds + config().WEBHOOK_SWEEP_AFTER_SECONDS) * 1000;
  const recorded = await recordAttempt(ref, event.attempts, {
    status,
    lastStatus: outcome.status,
    lastAttemptAt: attemptedAt,
    ...(retryAt ? { retryAt } : {}),
  });
  if (!recorded) return {}; // another run recorded this attempt first
  if (gone) {
    // a conditional write: a webhook the tenant changed meanwhile is not the one that is gone
    await disableWebhook(ref.tenantId, webhook.url, attemptedAt);
    log().warn('the webhook receiver answered 410 Gone; the tenant’s webhook is disabled', { eventId: event.id });
  }
  return retryAfterSeconds === undefined ? {} : { retryAfterSeconds };
}
