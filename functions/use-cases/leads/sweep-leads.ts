import type { Context as LambdaContext } from 'aws-lambda';

/** What a lead read needs of the function: the time it has left. */
type Context = Pick<LambdaContext, 'getRemainingTimeInMillis'>;
import { clock } from '../../../shared/core/clock.ts';
import { PlatformAuthExpired } from '../../../shared/core/errors.ts';
import { log } from '../../../shared/core/logger.ts';
import {
  clearAccessMissing,
  findLeadSubscription,
  type LeadSubscription,
  type LeadSubscriptionKey,
  noteSwept,
} from '../../../shared/store/lead-subscriptions.ts';
import { leadKnown } from '../../../shared/store/leads.ts';
import { findUser } from '../../../shared/store/users.ts';
import { notePlatformRefusal } from '../../../shared/webhooks/reconnect-required.ts';
import { deliverLead } from './deliver-lead.ts';
import { LEAD_SOURCES } from './lead-sources.ts';

/**
 * One subscription of the leads sweep (docs/leads.md, "Missed leads"), a message of its fan-out
 * (sweep-pass.ts queues them): its leads since it was last swept, less 15 minutes of overlap, never
 * before it was subscribed (older leads are a backfill's), and only the new ones delivered.
 */
const OVERLAP_MS = 15 * 60_000;

/**
 * One subscription swept (a message of the fan-out): its new leads delivered, or nothing when it was
 * removed since or its user's connection cannot read them now (the next pass tries again). Answers how
 * many leads it delivered, undefined when it could not sweep.
 */
export async function sweepSubscription(which: LeadSubscriptionKey, context: Context): Promise<number | undefined> {
  const subscription = await findLeadSubscription(which);
  if (!subscription) return undefined;
  const delivered = await sweepOne(subscription, context).catch((error: unknown) => {
    log().warn('a lead subscription could not be swept; the next sweep tries again', { platform: subscription.platform, reason: (error as Error).name });
    return undefined;
  });
  log().info('lead subscription swept', { platform: subscription.platform, delivered: delivered ?? null });
  return delivered;
}

/** One subscription's new leads since it was swept; undefined when its user's connection cannot read them now. */
async function sweepOne(subscription: LeadSubscription, context: Context): Promise<number | undefined> {
  const user = await findUser(subscription.tenantId, subscription.userId);
  if (!user?.connections[subscription.platform]) return undefined;
  const until = clock.now();
  let delivered = 0;
  try {
    for await (const lead of LEAD_SOURCES[subscription.platform].since(
      user,
      context,
      subscription.target,
      Math.max(subscription.subscribedAt, subscription.sweptUntil - OVERLAP_MS),
      until,
    )) {
      if (await leadKnown(subscription.tenantId, lead.platform, lead.leadId)) continue;
      if (await deliverLead(subscription.tenantId, subscription.userId, lead)) delivered++;
    }
  } catch (error) {
    if (!(error instanceof PlatformAuthExpired)) throw error;
    await notePlatformRefusal(user, error); // swept again from the same point once the user connects again
    return undefined;
  }
  await noteSwept(subscription, until);
  if (subscription.accessMissing) await clearAccessMissing(subscription); // its leads were read: access was given
  return delivered;
}
