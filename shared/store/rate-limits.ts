import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { clock } from '../core/clock.ts';
import { mainTableName, writeIfConditionHolds } from './client.ts';
import { keys } from './keys.ts';

/**
 * Our own per-tenant limits on an operation: a fixed window counted by one conditional increment
 * (atomic, whatever the concurrency), expired by the table's TTL.
 *   TENANT#<t>#RATE / <name>#<window start, epoch seconds>
 */
export interface RateLimit {
  name: string;
  limit: number;
  windowSeconds: number;
}

/** Takes one from the tenant's current window: undefined when allowed, else the seconds until the window ends. */
export async function takeFromWindow(tenantId: string, rule: RateLimit): Promise<number | undefined> {
  const nowSeconds = Math.floor(clock.now() / 1000);
  const windowStart = nowSeconds - (nowSeconds % rule.windowSeconds);
  const windowEnd = windowStart + rule.windowSeconds;
  const allowed = await writeIfConditionHolds(
    new UpdateCommand({
      TableName: mainTableName(),
      Key: keys.rateWindow(tenantId, rule.name, windowStart),
      UpdateExpression: 'ADD hits :one SET expiresAt = :expires',
      ConditionExpression: 'attribute_not_exists(hits) OR hits < :limit',
      ExpressionAttributeValues: { ':one': 1, ':limit': rule.limit, ':expires': windowEnd + 60 },
    }),
  );
  return allowed ? undefined : Math.max(1, windowEnd - nowSeconds);
}
