import { createHash } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { clock } from '../core/clock.ts';
import { Conflict, type Platform } from '../core/errors.ts';
import { findJob } from './jobs.ts';
import { documentStore, mainTableName, writeIfConditionHolds } from './client.ts';
import { keys } from './keys.ts';

/**
 * What a launch may call its own (docs/decisions.md, "Launch identity"): every object a launch made,
 * indexed by its platform id, so that a read-back never adopts another job's object; and the one
 * running launch of a name in an ad account, so that two launches of one name never run at once.
 */
const RECEIPT_KEEP_SECONDS = 90 * 24 * 3600;

/** Marks `platformId` as `jobId`'s: false when another job holds it already. */
export async function claimLaunchObject(platform: Platform, platformId: string, owner: { tenantId: string; jobId: string }): Promise<boolean> {
  return writeIfConditionHolds(
    new PutCommand({
      TableName: mainTableName(),
      Item: { ...keys.launchObject(platform, platformId), ...owner, expiresAt: Math.floor(clock.now() / 1000) + RECEIPT_KEEP_SECONDS },
      ConditionExpression: 'attribute_not_exists(pk) OR jobId = :job',
      ExpressionAttributeValues: { ':job': owner.jobId },
    }),
  );
}

/** The job holding each of `platformIds` (those no launch made are absent). */
export async function launchObjectHolders(platform: Platform, platformIds: string[]): Promise<Map<string, string>> {
  const read = async (id: string) => {
    const { Item } = await documentStore().send(new GetCommand({ TableName: mainTableName(), Key: keys.launchObject(platform, id), ConsistentRead: true }));
    return Item ? ([id, String(Item.jobId)] as const) : undefined;
  };
  const found = await Promise.all(platformIds.map(read));
  return new Map(found.filter((entry) => entry !== undefined));
}

export interface LaunchName {
  platform: Platform;
  adAccountId: string;
  name: string;
}

const nameKey = ({ platform, adAccountId, name }: LaunchName) =>
  keys.launchName(platform, adAccountId, createHash('sha256').update(name).digest('hex').slice(0, 32));

/**
 * The name held for `jobId`: undefined when it is now held, or the launch that holds it and still runs
 * (queued or running). A holder that ended, or whose job is gone, is taken over.
 */
export async function claimLaunchName(
  launch: LaunchName,
  owner: { tenantId: string; jobId: string },
): Promise<{ tenantId: string; jobId: string } | undefined> {
  const key = nameKey(launch);
  const put = (condition: string, values: Record<string, string>) =>
    writeIfConditionHolds(
      new PutCommand({
        TableName: mainTableName(),
        Item: { ...key, ...owner, expiresAt: Math.floor(clock.now() / 1000) + RECEIPT_KEEP_SECONDS },
        ConditionExpression: condition,
        ExpressionAttributeValues: values,
      }),
    );
  for (let attempt = 0; attempt < 5; attempt += 1) {
    if (await put('attribute_not_exists(pk) OR jobId = :job', { ':job': owner.jobId })) return undefined;
    const { Item } = await documentStore().send(new GetCommand({ TableName: mainTableName(), Key: key, ConsistentRead: true }));
    if (!Item) continue;
    const holder = { tenantId: String(Item.tenantId), jobId: String(Item.jobId) };
    const job = await findJob(holder.tenantId, holder.jobId);
    if (job && (job.status === 'queued' || job.status === 'running')) return holder;
    if (await put('jobId = :stale', { ':stale': holder.jobId })) return undefined;
  }
  // the name kept changing hands under concurrent launches: nothing started, the client retries
  throw new Conflict(`Launches of the campaign name "${launch.name}" kept starting at once in this ad account; nothing was started. Retry.`);
}

/** The name let go by the launch that held it (when it ends, or its start failed). */
export async function releaseLaunchName(launch: LaunchName, jobId: string): Promise<void> {
  await writeIfConditionHolds(
    new DeleteCommand({ TableName: mainTableName(), Key: nameKey(launch), ConditionExpression: 'jobId = :job', ExpressionAttributeValues: { ':job': jobId } }),
  );
}

/** The mark that a launch decided its activation: its history entry and audit event are recorded once against it. */
export async function decideLaunchActivation(tenantId: string, jobId: string): Promise<void> {
  await writeIfConditionHolds(
    new PutCommand({
      TableName: mainTableName(),
      Item: { ...keys.launchActivation(tenantId, jobId), expiresAt: Math.floor(clock.now() / 1000) + RECEIPT_KEEP_SECONDS },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
}
