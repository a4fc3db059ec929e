import type { Context as LambdaContext } from 'aws-lambda';

/** What a lead read needs of the function: the time it has left. */
type Context = Pick<LambdaContext, 'getRemainingTimeInMillis'>;
import { log } from '../../../shared/core/logger.ts';
import { LEAD_WEBHOOKS } from '../../../shared/leads/lead-webhooks.ts';
import { subscriptionsOf } from '../../../shared/store/lead-subscriptions.ts';
import { eraseLead } from '../../../shared/store/lead-writes.ts';
import { inboundBodies } from '../../../shared/flows/flows.ts';
import { flowOn } from '../../../shared/flows/on-table.ts';
import type { QueueMessage } from '../../../shared/queue/messages.ts';
import { findInbound, inboundKey } from '../../../shared/store/platform-webhooks.ts';
import { takeNotice } from './deliver-lead.ts';

/**
 * One stored platform webhook body (docs/leads.md): every lead it names, for every tenant subscribed
 * to its Page or account; then the body's item is settled (the `inbound` flow). A body no tenant takes,
 * or that names nothing we read, is settled too (logged by ids, never guessed at). The message carries
 * a small body itself; a large one is read back.
 */
type InboundMessage = Extract<QueueMessage<'PlatformEvents'>, { bodyHash: string }>;

export async function processInbound({ platform, bodyHash, body: carried }: InboundMessage, context: Context): Promise<void> {
  const body = carried ?? (await findInbound(platform, bodyHash));
  if (body === undefined) return; // past its days, or never stored
  const notices = LEAD_WEBHOOKS[platform].notices(body);
  if (!notices) log().warn('a platform webhook body of no known shape: kept, marked processed, never retried', { platform, bodyHash });
  for (const notice of notices ?? []) {
    const target = notice.platform === 'social' ? notice.pageId : notice.accountId;
    const subscriptions = await subscriptionsOf(platform, target);
    if (subscriptions.length === 0) {
      log().warn('a lead of a Page or account no tenant subscribed; dropped', { platform, target });
      continue;
    }
    if (notice.platform === 'professional' && notice.action === 'DELETED') {
      // the member (or the platform) removed the lead: our copies go too
      for (const subscription of subscriptions) await eraseLead(subscription.tenantId, subscription.userId, platform, notice.leadId);
      continue;
    }
    const outcomes = await takeNotice(notice, subscriptions, context);
    log().info('lead notice taken', { platform, target, outcomes });
  }
  await flowOn(inboundBodies).settle(inboundKey(platform, bodyHash));
}
