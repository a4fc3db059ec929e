import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { clock } from '../core/clock.ts';
import { config } from '../core/config.ts';
import { QuotaExceeded } from '../core/errors.ts';
import { googleDay, secondsUntilGoogleDay } from '../core/google-day.ts';
import { mainTableName, writeIfConditionHolds } from './client.ts';
import { keys } from './keys.ts';

/**
 * The search-ads Cloud project's daily operations, shared fairly (docs/configuration.md, "Search-ads
 * operations"): Google counts them for the whole project, so one tenant could spend every other
 * tenant's day. Each tenant may spend `SEARCHADS_TENANT_SHARE` of `SEARCHADS_DAILY_OPERATIONS` a Google
 * day (Pacific), counted by one conditional increment per call, before the call is sent.
 *   TENANT#<t>#SEARCHADS_OPS / <Pacific date>
 */
export const tenantShare = () => Math.max(1, Math.floor(config().SEARCHADS_DAILY_OPERATIONS * config().SEARCHADS_TENANT_SHARE));

/** `count` operations taken from the tenant's share of today, or QuotaExceeded (nothing is sent) until Google's next day. */
export async function spendSearchadsOperation(tenantId: string, count = 1): Promise<void> {
  const now = clock.now();
  const share = tenantShare();
  if (count > share) throw new QuotaExceeded('searchads', secondsUntilGoogleDay(now), share);
  const allowed = await writeIfConditionHolds(
    new UpdateCommand({
      TableName: mainTableName(),
      Key: keys.searchadsOperations(tenantId, googleDay(now)),
      UpdateExpression: 'ADD operations :count SET expiresAt = :expires',
      ConditionExpression: 'attribute_not_exists(operations) OR operations <= :left',
      ExpressionAttributeValues: { ':count': count, ':left': share - count, ':expires': Math.floor(now / 1000) + 2 * 86_400 },
    }),
  );
  if (!allowed) throw new QuotaExceeded('searchads', secondsUntilGoogleDay(now), share);
}
