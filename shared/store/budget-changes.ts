import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { clock } from '../core/clock.ts';
import type { Platform } from '../core/errors.ts';
import { LOST_RACE, documentStore, mainTableName, retryOnConflict, writeIfConditionHolds } from './client.ts';
import { keys } from './keys.ts';

/**
 * The budget changes made to a campaign in the last hour, for a platform that allows only so many
 * (the social platform: 4 an hour per object, then blocked for an hour). A change is reserved before
 * it is sent and let go if the platform did not take it, so the count is of changes made, whoever of
 * our tenants made them: the platform counts per campaign too. One item per campaign, written
 * conditionally on the version read.
 */
const HOUR_MS = 3_600_000;

interface ChangeLog {
  at: number[];
  version: number;
}

async function readLog(platform: Platform, campaignId: string): Promise<ChangeLog> {
  const { Item } = await documentStore().send(
    new GetCommand({ TableName: mainTableName(), Key: keys.budgetChanges(platform, campaignId), ConsistentRead: true }),
  );
  return { at: (Item?.at as number[] | undefined) ?? [], version: (Item?.version as number | undefined) ?? 0 };
}

function writeLog(platform: Platform, campaignId: string, at: number[], readVersion: number): Promise<boolean> {
  return writeIfConditionHolds(
    new PutCommand({
      TableName: mainTableName(),
      Item: { ...keys.budgetChanges(platform, campaignId), at, version: readVersion + 1, expiresAt: Math.floor((clock.now() + 2 * HOUR_MS) / 1000) },
      ConditionExpression: readVersion === 0 ? 'attribute_not_exists(pk)' : 'version = :version',
      ...(readVersion === 0 ? {} : { ExpressionAttributeValues: { ':version': readVersion } }),
    }),
  );
}

/**
 * Takes one of the hour's `perHour` changes for the campaign: its time when there was one left, or
 * how many seconds until the oldest of the last `perHour` is an hour old.
 */
export function reserveBudgetChange(platform: Platform, campaignId: string, perHour: number): Promise<{ at: number } | { retryAfterSeconds: number }> {
  return retryOnConflict(`The budget changes of campaign ${campaignId}`, async () => {
    const now = clock.now();
    const log = await readLog(platform, campaignId);
    const recent = log.at.filter((at) => now - at < HOUR_MS).sort((a, b) => a - b);
    if (recent.length >= perHour) {
      const oldestCounted = recent[recent.length - perHour] as number;
      return { retryAfterSeconds: Math.max(1, Math.ceil((oldestCounted + HOUR_MS - now) / 1000)) };
    }
    return (await writeLog(platform, campaignId, [...recent, now], log.version)) ? { at: now } : LOST_RACE;
  });
}

/** Gives a reserved change back: the platform did not make it. */
export function releaseBudgetChange(platform: Platform, campaignId: string, at: number): Promise<void> {
  return retryOnConflict(`The budget changes of campaign ${campaignId}`, async () => {
    const log = await readLog(platform, campaignId);
    if (!log.at.includes(at)) return undefined;
    return (await writeLog(
      platform,
      campaignId,
      log.at.filter((time) => time !== at),
      log.version,
    ))
      ? undefined
      : LOST_RACE;
  });
}
