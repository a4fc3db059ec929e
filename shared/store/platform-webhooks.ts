import { DeleteCommand, GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { clock } from '../core/clock.ts';
import { documentStore, failedTransactionConditions, mainTableName, queryItems } from './client.ts';
import { keys } from './keys.ts';
import { readStagedUpload, stageUpload } from '../storage/staging.ts';

/**
 * Verified platform webhook bodies (docs/leads.md), stored whole before the platform is answered,
 * keyed by the SHA-256 of their bytes: a replay or a platform's retry is the same item, stored once.
 * A pending marker stays until the body is processed, so the sweep finds one whose message was lost.
 * They carry ids only (no person's data); kept 7 days. A body over 300 KB is kept in the staging
 * bucket (under uploads/, so its lifecycle ends it after 2 days) and the item names its object.
 *   PLATFORM_WEBHOOK#<platform> / <sha256>      PLATFORM_WEBHOOKS#PENDING / <platform>#<sha256>
 */
export type InboundPlatform = 'social' | 'professional';
const KEEP_SECONDS = 7 * 86_400;

/** Bodies larger than this go to the staging bucket, the item naming them: a table item holds 400 KB in all. */
export const LARGEST_BODY_IN_ITEM = 300_000;
const bodyObjectKey = (platform: InboundPlatform, bodyHash: string) => `uploads/platform-webhooks/${platform}/${bodyHash}.json`;

/** Stored with its pending marker; false when the same bytes were stored already (nothing written). */
export async function storeInbound(platform: InboundPlatform, bodyHash: string, body: string): Promise<boolean> {
  const now = clock.now();
  // a large body goes to the bucket first (a replay writes the same object again): the item then only names it
  const inItem = Buffer.byteLength(body, 'utf8') <= LARGEST_BODY_IN_ITEM;
  if (!inItem) await stageUpload(bodyObjectKey(platform, bodyHash), Buffer.from(body, 'utf8'), 'application/json');
  const held = inItem ? { body } : { bodyObject: bodyObjectKey(platform, bodyHash) };
  try {
    await documentStore().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: mainTableName(),
              Item: { ...keys.platformWebhook(platform, bodyHash), ...held, receivedAt: now, expiresAt: Math.floor(now / 1000) + KEEP_SECONDS },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          {
            Put: {
              TableName: mainTableName(),
              Item: { pk: keys.pendingPlatformWebhooksPk, sk: `${platform}#${bodyHash}`, platform, bodyHash, receivedAt: now },
            },
          },
        ],
      }),
    );
    return true;
  } catch (error) {
    if (failedTransactionConditions(error)?.includes(0)) return false;
    throw error;
  }
}

export async function findInbound(platform: InboundPlatform, bodyHash: string): Promise<string | undefined> {
  const { Item } = await documentStore().send(
    new GetCommand({ TableName: mainTableName(), Key: keys.platformWebhook(platform, bodyHash), ConsistentRead: true }),
  );
  if (typeof Item?.bodyObject === 'string') {
    const chunks: Uint8Array[] = [];
    for await (const chunk of await readStagedUpload(Item.bodyObject)) chunks.push(chunk);
    return Buffer.concat(chunks).toString('utf8');
  }
  return Item?.body as string | undefined;
}

/** Processed: its pending marker goes (the body stays its 7 days, so a replay is still a no-op). */
export async function markInboundProcessed(platform: InboundPlatform, bodyHash: string): Promise<void> {
  await documentStore().send(new DeleteCommand({ TableName: mainTableName(), Key: { pk: keys.pendingPlatformWebhooksPk, sk: `${platform}#${bodyHash}` } }));
}

/** The bodies still pending since before `before` (epoch ms): their message was lost, or every attempt failed. */
export async function* pendingInbound(before: number): AsyncGenerator<{ platform: InboundPlatform; bodyHash: string }> {
  for await (const item of queryItems({ KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': keys.pendingPlatformWebhooksPk } })) {
    if (Number(item.receivedAt) < before) yield { platform: item.platform as InboundPlatform, bodyHash: String(item.bodyHash) };
  }
}
