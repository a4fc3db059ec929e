import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { clock, isoDate } from '../core/clock.ts';
import { mainTableName, writeIfConditionHolds } from './client.ts';
import { keys } from './keys.ts';

/** Whether this call is the first today (UTC) for `kind` on `subject`: the one that sends the notice. */
export async function firstNoticeToday(tenantId: string, kind: string, subject: string): Promise<boolean> {
  const now = clock.now();
  return writeIfConditionHolds(
    new PutCommand({
      TableName: mainTableName(),
      Item: { ...keys.dailyNotice(tenantId, kind, subject, isoDate(now)), expiresAt: Math.floor(now / 1000) + 2 * 86_400 },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
}
