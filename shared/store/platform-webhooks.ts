import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { clock } from '../core/clock.ts';
import { mainTableName, documentStore } from './client.ts';
import type { FlowKey } from './flow-items.ts';
import { keys } from './keys.ts';
import { readStagedUpload, stageUpload } from '../storage/staging.ts';

/**
 * Verified platform webhook bodies (docs/leads.md), stored whole before the platform is answered,
 * keyed by the SHA-256 of their bytes: a replay or a platform's retry is the same item, stored once.
 * Each is an item of the `inbound` event flow (shared/flows/), due until it is processed, so the sweep
 * finds one whose message was lost. They carry ids only (no person's data); kept 7 days. A body over
 * 300 KB is kept in the staging bucket (under uploads/, so its lifecycle ends it after 2 days) and the
 * item names its object.
 *   PLATFORM_WEBHOOK#<platform>#<sha256> / BODY
 */
export type InboundPlatform = 'social' | 'professional';
const KEEP_SECONDS = 7 * 86_400;

/** Bodies larger than this go to the staging bucket, the item naming them: a table item holds 400 KB in all. */
export const LARGEST_BODY_IN_ITEM = 300_000;
const bodyObjectKey = (platform: InboundPlatform, bodyHash: string) => `uploads/platform-webhooks/${platform}/${bodyHash}.json`;

export const inboundKey = (platform: InboundPlatform, bodyHash: string): FlowKey => keys.platformWebhook(platform, bodyHash);

/** What the body's item holds (a large body is written to the bucket first: a replay writes the same object again). */
export async function inboundAttributes(platform: InboundPlatform, bodyHash: string, body: string): Promise<Record<string, unknown>> {
  const now = clock.now();
  const inItem = Buffer.byteLength(body, 'utf8') <= LARGEST_BODY_IN_ITEM;
  if (!inItem) await stageUpload(bodyObjectKey(platform, bodyHash), Buffer.from(body, 'utf8'), 'application/json');
  const held = inItem ? { body } : { bodyObject: bodyObjectKey(platform, bodyHash) };
  return { platform, bodyHash, ...held, receivedAt: now, expiresAt: Math.floor(now / 1000) + KEEP_SECONDS };
}

export async function findInbound(platform: InboundPlatform, bodyHash: string): Promise<string | undefined> {
  const { Item } = await documentStore().send(new GetCommand({ TableName: mainTableName(), Key: inboundKey(platform, bodyHash), ConsistentRead: true }));
  if (typeof Item?.bodyObject === 'string') {
    const chunks: Uint8Array[] = [];
    for await (const chunk of await readStagedUpload(Item.bodyObject)) chunks.push(chunk);
    return Buffer.concat(chunks).toString('utf8');
  }
  return Item?.body as string | undefined;
}
