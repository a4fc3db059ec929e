import type { Context as LambdaContext } from 'aws-lambda';

/** What a lead read needs of the function: the time it has left. */
type Context = Pick<LambdaContext, 'getRemainingTimeInMillis'>;
import { PlatformAuthExpired } from '../../../shared/core/errors.ts';
import { log } from '../../../shared/core/logger.ts';
import type { LeadNotice } from '../../../shared/platforms/lead-webhooks.ts';
import type { NormalizedLead } from '../../../shared/schemas/leads.ts';
import { clearAccessMissing, type LeadSubscription, noteAccessMissing } from '../../../shared/store/lead-subscriptions.ts';
import { storeLead } from '../../../shared/store/lead-writes.ts';
import { leadReading } from '../../../shared/store/leads.ts';
import type { TenantSettings } from '../../../shared/store/tenant-settings.ts';
import type { User } from '../../../shared/store/users.ts';
import { emitWebhookEvent } from '../../../shared/webhooks/emit.ts';
import { newWebhookEvent } from '../../../shared/webhooks/events.ts';
import { announceWebhookEvent } from '../../../shared/webhooks/queue.ts';
import { notePlatformRefusal } from '../../../shared/webhooks/reconnect-required.ts';
import { LEAD_SOURCES } from './lead-sources.ts';

/**
 * A lead reaching its tenant (docs/leads.md, "Once, never lost"): stored once per (tenant, platform,
 * lead) with its `lead.received` event in the same transaction, then queued for delivery. A second
 * finding of the same lead (a platform retry, a replay, the sweep, a backfill) stores and sends nothing.
 * No value of the lead is ever logged: ids and counts only.
 */
export async function deliverLead(tenantId: string, userId: string, lead: NormalizedLead, settings?: TenantSettings): Promise<boolean> {
  const event = await newWebhookEvent(
    tenantId,
    'lead.received',
    { userId, platform: lead.platform, lead },
    { sealed: true, ...(settings ? { settings } : {}) },
  );
  if (!(await storeLead(tenantId, userId, lead, event))) return false;
  if (event) await announceWebhookEvent(event);
  log().info('lead delivered', { platform: lead.platform, leadId: lead.leadId, formId: lead.formId });
  return true;
}

/** What became of a notice for one tenant. */
export type NoticeOutcome = 'delivered' | 'known' | 'unavailable' | 'access_missing' | 'reconnect_required' | 'no_connection';

/**
 * A platform's notice of a lead, for every tenant subscribed to its Page or account: read once per
 * tenant (by the first of its users whose connection reads it), unless the tenant has it already. A
 * refusal that another attempt would meet again is recorded and the next tenant goes on; anything else
 * (throttling, an outage) is thrown, so the body is processed again and the tenants done are skipped.
 */
export async function takeNotice(notice: LeadNotice, subscriptions: LeadSubscription[], context: Context): Promise<NoticeOutcome[]> {
  const byTenant = new Map<string, LeadSubscription[]>();
  for (const subscription of subscriptions) byTenant.set(subscription.tenantId, [...(byTenant.get(subscription.tenantId) ?? []), subscription]);
  const outcomes: NoticeOutcome[] = [];
  for (const [tenantId, ofTenant] of byTenant) outcomes.push(await takeForTenant(notice, tenantId, ofTenant, context));
  return outcomes;
}

async function takeForTenant(notice: LeadNotice, tenantId: string, subscriptions: LeadSubscription[], context: Context): Promise<NoticeOutcome> {
  // one read: the lead known already, the subscribed users, the tenant's webhook
  const { known, users, settings } = await leadReading(
    tenantId,
    notice.platform,
    notice.leadId,
    subscriptions.map((subscription) => subscription.userId),
  );
  if (known) return 'known';
  const source = LEAD_SOURCES[notice.platform];
  let outcome: NoticeOutcome = 'no_connection';
  for (const subscription of subscriptions) {
    const user = users.find((candidate) => candidate.userId === subscription.userId);
    if (!user?.connections[notice.platform]) continue;
    try {
      const lead = await source.read(user, context, notice);
      if (subscription.accessMissing) await clearAccessMissing(subscription);
      return (await deliverLead(tenantId, user.userId, lead, settings)) ? 'delivered' : 'known';
    } catch (error) {
      outcome = await refused(error, user, subscription);
      if (outcome === 'unavailable') return outcome;
    }
  }
  return outcome;
}

/** A read's refusal that a retry of the same body would meet again: recorded (ids only), and the lead left to the sweep. */
async function refused(error: unknown, user: User, subscription: LeadSubscription): Promise<NoticeOutcome> {
  const source = LEAD_SOURCES[subscription.platform];
  if (error instanceof PlatformAuthExpired) {
    await notePlatformRefusal(user, error); // reconnect_required; the sweep finds the lead once the user connects again
    return 'reconnect_required';
  }
  if (source.unavailable(error)) {
    log().warn('a lead can no longer be read (deleted, or past the platform’s retention)', { platform: subscription.platform });
    return 'unavailable';
  }
  if (source.accessMissing(error)) {
    if (await noteAccessMissing(subscription))
      await emitWebhookEvent(user.tenantId, 'leads.access_missing', { userId: user.userId, platform: subscription.platform, target: subscription.target });
    return 'access_missing';
  }
  throw error;
}
