import type { Context as LambdaContext } from 'aws-lambda';

/** What a lead read needs of the function: the time it has left. */
type Context = Pick<LambdaContext, 'getRemainingTimeInMillis'>;
import { clock } from '../../../shared/core/clock.ts';
import { PlatformError, ScopeMissing, ServiceError } from '../../../shared/core/errors.ts';
import { log } from '../../../shared/core/logger.ts';
import { deleteLeadSubscription, saveLeadSubscription, subscriptionsOf } from '../../../shared/store/lead-subscriptions.ts';
import type { User } from '../../../shared/store/users.ts';
import { type LeadSource, leadTargetThrough } from './lead-source.ts';
import { LEAD_SOURCES, type LeadPlatform } from './lead-sources.ts';

/**
 * `POST /leads/subscribe` and `/unsubscribe` (docs/leads.md, "Subscriptions"): what the user's
 * connection reaches (its Page, its ad account) subscribed on the platform, then recorded so that the
 * platform's webhooks are routed to the tenant and the sweep reads it. A connection without the
 * permissions leads need is SCOPE_MISSING before anything is sent.
 */
export interface SubscriptionAnswer {
  subscriptions: Array<{ target: string; status: 'subscribed' | 'failed' | 'unsubscribed'; error?: { code: string; message: string } }>;
}

export function subscribeLeads(user: User, platform: LeadPlatform, context: Context): Promise<SubscriptionAnswer> {
  return subscribeThrough(user, LEAD_SOURCES[platform], context);
}

/** A subscription through one platform's source: a caller that knows its platform bundles no other's. */
async function subscribeThrough(user: User, source: LeadSource, context: Context): Promise<SubscriptionAnswer> {
  const { platform } = source;
  const target = leadTargetThrough(user, source);
  try {
    await source.subscribe(user, context, target);
  } catch (error) {
    // a permission refusal of a connection that named no scopes (raw tokens): the leads permissions are missing
    if (source.accessMissing(error)) throw new ScopeMissing(platform, source.scopes.join(', '));
    // the platform refused this target: said per target, as the answer's shape allows several
    if (!(error instanceof PlatformError) || error.status >= 500 || error.code === 'PLATFORM_AUTH_EXPIRED') throw error;
    return { subscriptions: [{ target, status: 'failed', error: { code: error.code, message: error.message } }] };
  }
  const saved = await saveLeadSubscription(platform, target, user.tenantId, user.userId);
  // subscribed, and still told when its leads could not be read: the business's own leads access keeps us out
  const accessMissing = saved.accessMissing
    ? {
        error: {
          code: 'LEADS_ACCESS_MISSING',
          message: `The ${platform} ${platform === 'social' ? 'Page' : 'ad account'}'s leads could not be read with this connection: its business keeps the app (or the member) out of its leads. They arrive once access is given.`,
        },
      }
    : {};
  return { subscriptions: [{ target, status: 'subscribed', ...accessMissing }] };
}

export async function unsubscribeLeads(user: User, platform: LeadPlatform, context: Context): Promise<SubscriptionAnswer> {
  const target = LEAD_SOURCES[platform].targetOf(user);
  if (!target) return { subscriptions: [] };
  // our record goes first: no lead of it is routed to the user any more, whatever the platform answers
  await deleteLeadSubscription(platform, target, user.tenantId, user.userId);
  // the platform's own subscription is shared by every user of any tenant who takes this target's leads: it stays while one does
  if ((await subscriptionsOf(platform, target)).length > 0) return { subscriptions: [{ target, status: 'unsubscribed' }] };
  await LEAD_SOURCES[platform]
    .unsubscribe(user, context, target)
    .catch((error: unknown) =>
      log().warn('the platform subscription could not be removed; its webhooks reach no one', { platform, reason: (error as Error).name }),
    );
  return { subscriptions: [{ target, status: 'unsubscribed' }] };
}

/**
 * A lead form (operation 10) or a lead launch subscribes its Page by itself: best effort, after the
 * platform made what it made (a connection without the leads permissions is told by subscribe).
 */
export async function subscribeLeadsQuietly(user: User, source: LeadSource, context: Context): Promise<void> {
  await subscribeThrough(user, source, context).catch((error: unknown) =>
    log().info('leads not subscribed with the form', {
      platform: source.platform,
      code: error instanceof ServiceError ? error.code : 'INTERNAL',
      at: clock.now(),
    }),
  );
}
