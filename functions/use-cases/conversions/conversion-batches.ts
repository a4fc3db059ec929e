import type { AuditDraft } from '../../../shared/core/audit.ts';
import { type Platform, type PlatformRejected, ScopeMissing } from '../../../shared/core/errors.ts';
import { log } from '../../../shared/core/logger.ts';
import { type ProfessionalConversionEvent, sendProfessionalEvents } from '../../../shared/platforms/professional/conversion-events.ts';
import type { ProfessionalSession } from '../../../shared/platforms/professional/client.ts';
import type { SearchadsSession } from '../../../shared/platforms/searchads/client.ts';
import { ingestEvents, refusedEventIndex, type SearchadsConversionEvent } from '../../../shared/platforms/searchads/conversion-events.ts';
import type { SocialSession } from '../../../shared/platforms/social/client.ts';
import { type SocialServerEvent, sendSocialEvents } from '../../../shared/platforms/social/conversion-events.ts';
import { recordAuditEvent } from '../../../shared/store/audit-event-writes.ts';
import { settleDelivery } from '../../../shared/store/conversion-writes.ts';
import type { ConversionDelivery } from '../../../shared/store/conversions.ts';
import { announceWebhookEvent } from '../../../shared/webhooks/queue.ts';
import { throttleDataManager } from '../jobs/data-manager-quota.ts';
import { conversionEndEvent } from './conversion-webhooks.ts';
import type { Batch } from './conversions-job-records.ts';

/**
 * One request of a `conversions` job to one destination (docs/conversions.md, "Delivery of CRM
 * events"): what it sends, how each platform's answer or refusal ends its events, and their end
 * written with the tenant's webhook of each (no value of the person) and one audit event of the
 * request, with counts only.
 */
export const PLATFORM_BATCHES: Record<Platform, number> = { social: 1_000, professional: 5_000, searchads: 2_000 };

export interface Outcome {
  status: 'delivered' | 'rejected' | 'unknown';
  error?: { code: string; message: string };
}

export type BatchEnding =
  /** Google took the request: its events end when its status does */
  | { kind: 'accepted'; requestId: string }
  /** every event ends the same way, or each as `statuses` says (in request order) */
  | { kind: 'ended'; outcome: Outcome; statuses?: Outcome[] }
  /** refused whole for an event it does not name: sent again in halves */
  | { kind: 'split' }
  /** refused whole for the event it names: that one ends, the rest go again */
  | { kind: 'drop'; index: number; outcome: Outcome };

export async function sendBatch(batch: Batch, deliveries: readonly ConversionDelivery[]): Promise<BatchEnding> {
  const { group } = batch;
  if (group.platform === 'social') {
    const events = deliveries.map((delivery) => (delivery.payload as { event: SocialServerEvent }).event);
    await sendSocialEvents(batch.session as SocialSession, group.destinationId, events);
    return { kind: 'ended', outcome: { status: 'delivered' } };
  }
  if (group.platform === 'professional') {
    const events = deliveries.map((delivery) => (delivery.payload as { event: ProfessionalConversionEvent }).event);
    const statuses = await sendProfessionalEvents(batch.session as ProfessionalSession, events);
    return {
      kind: 'ended',
      outcome: { status: 'delivered' },
      statuses: statuses.map((status) =>
        status === 201
          ? { status: 'delivered' }
          : { status: 'rejected', error: { code: 'PLATFORM_REJECTED', message: `The platform answered the event with status ${status}.` } },
      ),
    };
  }
  await throttleDataManager(batch.job.tenantId);
  const events = deliveries.map((delivery) => (delivery.payload as { event: SearchadsConversionEvent }).event);
  const requestId = await ingestEvents(batch.session as SearchadsSession, group.destinationId, events);
  return { kind: 'accepted', requestId: requestId as string };
}

const rejected = (code: string, message: string): Outcome => ({ status: 'rejected', error: { code, message } });
const DESTINATION_GONE = new Set(['INVALID_CONVERSION_ACTION_ID', 'INVALID_CONVERSION_ACTION_TYPE']);
const NOT_ENABLED = new Set([
  'DESTINATION_ACCOUNT_NOT_ENABLED_ENHANCED_CONVERSIONS_FOR_LEADS',
  'DESTINATION_ACCOUNT_DATA_POLICY_PROHIBITS_ENHANCED_CONVERSIONS',
  'DESTINATION_ACCOUNT_ENHANCED_CONVERSIONS_TERMS_NOT_SIGNED',
]);
/** Refusals that mean our request was malformed, not an event: a bug to see, never an event's fate. */
const OUR_BUG = new Set(['TOO_MANY_EVENTS', 'TOO_MANY_DESTINATIONS', 'DUPLICATE_DESTINATION_REFERENCE', 'INVALID_HEX_ENCODING', 'INVALID_SHA256_FORMAT']);

/** A refusal of the whole request, read per platform: the destination's (every event ends), or one event's (split, or dropped). */
export function refusalOfBatch(batch: Batch, error: PlatformRejected | ScopeMissing, count: number): BatchEnding {
  const ended = (outcome: Outcome): BatchEnding => ({ kind: 'ended', outcome });
  if (error instanceof ScopeMissing) return ended(rejected('SCOPE_MISSING', error.message));
  const { platformCode, platformSubcode, platformStatus } = error.extra as { platformCode?: unknown; platformSubcode?: unknown; platformStatus?: unknown };
  const alone = (outcome: Outcome): BatchEnding => (count > 1 ? { kind: 'split' } : ended(outcome));
  switch (batch.group.platform) {
    case 'social':
      if (platformCode === 100 && platformSubcode === 33)
        return ended(rejected('DESTINATION_NOT_FOUND', 'The dataset does not exist or the connection cannot reach it.'));
      if (platformCode === 200) return ended(rejected('SCOPE_MISSING', 'The connection may not send events to the dataset.'));
      return alone(rejected('PLATFORM_REJECTED', `The platform refused the event (${platformCode}/${platformSubcode ?? '-'}).`));
    case 'professional':
      if (platformStatus === 403) return ended(rejected('SCOPE_MISSING', 'The connection may not send conversions (rw_conversions, or the member’s role).'));
      if (platformStatus === 400) return ended(rejected('DESTINATION_NOT_FOUND', 'The conversion rule is not one of the Conversions API.'));
      return alone(rejected('PLATFORM_REJECTED', `The platform refused the event (HTTP ${platformStatus ?? '-'}).`));
    case 'searchads': {
      const reason = String(platformCode ?? '');
      if (OUR_BUG.has(reason)) throw error;
      if (DESTINATION_GONE.has(reason))
        return ended(rejected('DESTINATION_NOT_FOUND', 'The conversion action does not exist or does not take offline events.'));
      if (NOT_ENABLED.has(reason))
        return ended(rejected('DESTINATION_NOT_ENABLED', 'Enhanced conversions for leads is off in the account, or its terms are not accepted.'));
      const outcome =
        reason === 'EVENT_TIME_INVALID'
          ? rejected('CONVERSION_EXPIRED', 'Google refused the event’s time: it is outside the action’s window.')
          : rejected('PLATFORM_REJECTED', `Google refused the event (${reason}).`);
      const index = refusedEventIndex(error);
      if (index !== undefined && index < count) return { kind: 'drop', index, outcome };
      return alone(outcome);
    }
  }
}

const AT_ONCE = 25;

/**
 * Deliveries ended, a few at a time, each with its webhook in the same write (a delivery another run
 * ended first is left as it is), then the request audited with counts.
 */
export async function endDeliveries(batch: Batch, deliveries: readonly ConversionDelivery[], outcome: Outcome, statuses?: readonly Outcome[]): Promise<void> {
  if (deliveries.length === 0) return;
  const { job } = batch;
  const counts: Record<string, number> = {};
  for (let from = 0; from < deliveries.length; from += AT_ONCE)
    await Promise.all(
      deliveries.slice(from, from + AT_ONCE).map(async (delivery, offset) => {
        const ending = statuses?.[from + offset] ?? outcome;
        const event = await conversionEndEvent(delivery, ending, batch.settings);
        if (!(await settleDelivery(delivery, ending.status, ending.error, event))) return;
        counts[ending.status] = (counts[ending.status] ?? 0) + 1;
        if (event) await announceWebhookEvent(event);
      }),
    );
  if ((counts.rejected ?? 0) + (counts.unknown ?? 0) > 0)
    log().warn('conversions not delivered', {
      platform: batch.group.platform,
      rejected: counts.rejected ?? 0,
      unknown: counts.unknown ?? 0,
      code: outcome.error?.code,
    });
  const audit: AuditDraft = {
    tenantId: job.tenantId,
    action: 'conversion.sent',
    target: { type: 'conversions_job', id: job.jobId },
    userId: job.userId,
    platform: batch.group.platform,
    changes: { events: { to: deliveries.length }, ...Object.fromEntries(Object.entries(counts).map(([status, count]) => [status, { to: count }])) },
    outcome: counts.delivered ? 'succeeded' : 'failed',
    ...(outcome.error && !counts.delivered ? { error: { code: outcome.error.code } } : {}),
  };
  await recordAuditEvent(audit);
}
