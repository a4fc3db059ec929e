import type { Context } from 'aws-lambda';
import { clock } from '../../../shared/core/clock.ts';
import { PlatformAuthExpired, PlatformRateLimited, PlatformRejected, PlatformTimeout, PlatformUnavailable, ScopeMissing } from '../../../shared/core/errors.ts';
import type { AuditDraft } from '../../../shared/core/audit.ts';
import { log } from '../../../shared/core/logger.ts';
import { conversionDeliveries } from '../../../shared/flows/flows.ts';
import { flowOn } from '../../../shared/flows/on-table.ts';
import { type ProfessionalConversionEvent, sendProfessionalEvents } from '../../../shared/platforms/professional/conversion-events.ts';
import { professionalSession } from '../../../shared/platforms/professional/session.ts';
import { type SocialServerEvent, sendSocialEvents } from '../../../shared/platforms/social/conversion-events.ts';
import { socialSession } from '../../../shared/platforms/social/session.ts';
import { settleDelivery } from '../../../shared/store/conversion-writes.ts';
import { type ConversionDelivery, findConversionDelivery } from '../../../shared/store/conversions.ts';
import { findUser } from '../../../shared/store/users.ts';
import { announceWebhookEvent } from '../../../shared/webhooks/queue.ts';
import { conversionEndEvent } from './conversion-webhooks.ts';
import { expired } from './windows.ts';

/**
 * One conversion to one destination (docs/conversions.md, "Delivery"), from its item of the
 * `conversions` flow: sent once, then ended with its status and the tenant's webhook of it in one
 * write. A throttled or unreachable platform parks it (the answer says how long): the social platform
 * deduplicates on the event's id, so a send whose answer was lost is sent again as it was; the
 * professional one does not, so such a conversion ends `unknown` and is never sent again. An event
 * that waits on an earlier stage of its lead waits until that one has ended.
 */
export interface DeliveryOutcome {
  /** the message comes back after this many seconds (the item stays due until then, and a lease after) */
  retryAfterSeconds?: number;
}

/** how long a delivery waits for its lead's earlier stage to end before it looks again */
const WAIT_FOR_EARLIER_SECONDS = 5;
/** how long a delivery parks when the platform is unreachable (social: it is then sent again as it was) */
const UNREACHABLE_PARK_SECONDS = 60;
/** how long a delivery parks while the user's grant is refused (the connection is marked reconnect_required meanwhile) */
const GRANT_PARK_SECONDS = 3_600;

type Ending = {
  status: 'delivered' | 'rejected' | 'unknown' | 'skipped_expired';
  error?: { code: string; message: string };
  /** the platform answered a request for it (a refusal), as opposed to a decision of ours before sending */
  sent?: boolean;
};

/** The professional platform's answer never came (a timeout, a 5xx, the process gone): it keeps no record to deduplicate on. */
const LOST_ANSWER: Ending = {
  status: 'unknown',
  error: { code: 'UNKNOWN_OUTCOME', message: 'The platform’s answer was lost; it keeps no record to deduplicate on, so the event is not sent again.' },
};

export async function deliverConversion(ref: { pk: string; sk: string }, context: Context): Promise<DeliveryOutcome> {
  const delivery = await findConversionDelivery(ref);
  if (delivery?.status !== 'queued') return {};
  const flow = flowOn(conversionDeliveries);
  const park = async (seconds: number): Promise<DeliveryOutcome> => {
    await flow.dueAgainAt(ref, clock.now() + seconds * 1000 + conversionDeliveries.leaseMs(), { set: { inFlight: false }, expect: { status: 'queued' } });
    return { retryAfterSeconds: seconds };
  };
  if (delivery.inFlight) {
    // a run sent it and has not ended it: alive within its lease (wait for it), or gone with its answer
    const leaseLeftMs = (delivery.dueAt ?? 0) - clock.now();
    if (leaseLeftMs > 0) return { retryAfterSeconds: Math.ceil(leaseLeftMs / 1000) };
    if (delivery.platform === 'professional') {
      await end(delivery, LOST_ANSWER);
      return {};
    }
  }
  if (delivery.after) {
    const earlier = await findConversionDelivery(delivery.after);
    if (earlier?.status === 'queued') return park(WAIT_FOR_EARLIER_SECONDS);
  }
  // marked before it goes: a run that dies with the request on the wire leaves the mark for the next to judge
  const marked = await flow.dueAgainAt(ref, clock.now() + conversionDeliveries.leaseMs(), {
    set: { inFlight: true },
    expect: { status: 'queued', inFlight: delivery.inFlight ?? false, ...(delivery.dueAt === undefined ? {} : { dueAt: delivery.dueAt }) },
  });
  if (!marked) return {};
  let ending: Ending;
  try {
    ending = await send(delivery, context);
  } catch (error) {
    if (error instanceof PlatformRateLimited) return park(error.retryAfterSeconds);
    if (error instanceof PlatformAuthExpired) return park(GRANT_PARK_SECONDS);
    if (error instanceof PlatformTimeout || error instanceof PlatformUnavailable) {
      // the request may have reached the platform: the social platform takes it again without counting it twice
      if (delivery.platform === 'social') return park(UNREACHABLE_PARK_SECONDS);
      ending = LOST_ANSWER;
    } else ending = { ...refusalOf(error, delivery), sent: true };
  }
  await end(delivery, ending);
  return {};
}

async function send(delivery: ConversionDelivery, context: Context): Promise<Ending> {
  if (expired(delivery.platform, delivery.occurredAtMs)) return { status: 'skipped_expired' };
  const user = await findUser(delivery.tenantId, delivery.userId);
  if (!user?.connections[delivery.platform])
    return { status: 'rejected', error: { code: 'PLATFORM_NOT_CONNECTED', message: `The user has no ${delivery.platform} connection any more.` } };
  if (delivery.platform === 'social') {
    const { datasetId, event } = delivery.payload as { datasetId: string; event: SocialServerEvent };
    await sendSocialEvents(socialSession(user, context), datasetId, [event]);
    return { status: 'delivered' };
  }
  const { event } = delivery.payload as { event: ProfessionalConversionEvent };
  const [status] = await sendProfessionalEvents(professionalSession(user, context), [event]);
  return status === 201
    ? { status: 'delivered' }
    : { status: 'rejected', sent: true, error: { code: 'PLATFORM_REJECTED', message: `The platform answered the event with status ${status}.` } };
}

/** A refusal as the conversion's end, in words that quote nothing of the person (the platform's own message may). */
function refusalOf(error: unknown, delivery: ConversionDelivery): Ending {
  if (error instanceof ScopeMissing) return { status: 'rejected', error: { code: 'SCOPE_MISSING', message: error.message } };
  if (!(error instanceof PlatformRejected)) throw error;
  const { platformCode, platformSubcode, platformStatus } = error.extra as { platformCode?: unknown; platformSubcode?: unknown; platformStatus?: unknown };
  if (delivery.platform === 'social') {
    if (platformCode === 100 && platformSubcode === 33)
      return { status: 'rejected', error: { code: 'DESTINATION_NOT_FOUND', message: 'The dataset does not exist or the connection cannot reach it.' } };
    return { status: 'rejected', error: { code: 'PLATFORM_REJECTED', message: `The platform refused the event (${platformCode}/${platformSubcode ?? '-'}).` } };
  }
  if (platformStatus === 400)
    return { status: 'rejected', error: { code: 'DESTINATION_NOT_FOUND', message: 'The conversion rule is not one of the Conversions API.' } };
  if (platformStatus === 403)
    return { status: 'rejected', error: { code: 'SCOPE_MISSING', message: 'The connection may not send conversions (rw_conversions, or the member’s role).' } };
  return { status: 'rejected', error: { code: 'PLATFORM_REJECTED', message: `The platform refused the event (HTTP ${platformStatus ?? '-'}).` } };
}

async function end(delivery: ConversionDelivery, ending: Ending): Promise<void> {
  const event = ending.status === 'skipped_expired' ? undefined : await conversionEndEvent(delivery, { ...ending, status: ending.status });
  // a request went to the platform: audited with counts only, never a value of the person
  const sent = ending.status === 'delivered' || ending.status === 'unknown' || ending.sent === true;
  const audit: AuditDraft | undefined = sent
    ? {
        tenantId: delivery.tenantId,
        action: 'conversion.sent',
        target: { type: 'conversion', id: delivery.eventId },
        userId: delivery.userId,
        platform: delivery.platform,
        changes: { events: { to: 1 }, status: { to: ending.status } },
        outcome: ending.status === 'rejected' ? 'failed' : 'succeeded',
        ...(ending.error ? { error: { code: ending.error.code } } : {}),
      }
    : undefined;
  if (!(await settleDelivery(delivery, ending.status, ending.error, event, audit))) return;
  if (ending.status !== 'delivered')
    log().warn('a conversion was not delivered', { platform: delivery.platform, status: ending.status, code: ending.error?.code });
  if (event) await announceWebhookEvent(event);
  // the lead's next stage waited on this one (lost here, the sweep queues it once its lease runs out)
  if (delivery.next) await flowOn(conversionDeliveries).announce({ ...delivery.next });
}
