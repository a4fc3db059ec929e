import { sendAuditedTogether } from './audit-event-writes.ts';
import { randomBytes, randomUUID } from 'node:crypto';
export { findTenantIdByKeyHash, hashApiKey };
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { findTenantIdByKeyHash, hashApiKey } from './api-key-lookup.ts';
import { clock } from '../core/clock.ts';
import { documentStore, failedCondition, mainTableName, scanItems } from './client.ts';
import { keys } from './keys.ts';

/**
 * Tenants and their API keys, administered (`npm run admin`, the local stack's seed); the lookup on
 * every request is api-key-lookup.ts, so no function bundles the administration.
 * Tenants and their API keys. A key is shown once when created; only its SHA-256 hash is stored.
 *   KEY#<sha256>          / KEY         → which tenant a key belongs to (the lookup on every request)
 *   TENANT#<id>           / KEY#<keyId> → the key's listing entry (hash, dates), never the key
 *   TENANTNAME#<name>     / TENANTNAME  → the tenant: its id, by name, so a name maps to one tenant
 */
export interface ApiKeyListing {
  tenantId: string;
  tenantName: string;
  keyId: string;
  createdAt: string;
  revokedAt?: string;
}

export function generateApiKey(): string {
  return `ak_${randomBytes(32).toString('base64url')}`;
}

/** The id of the tenant named `tenantName`, if there is one. */
export async function findTenantByName(tenantName: string): Promise<string | undefined> {
  const { Item } = await documentStore().send(new GetCommand({ TableName: mainTableName(), Key: keys.tenantName(tenantName) }));
  return Item?.tenantId as string | undefined;
}

/** Returns the tenant of `tenantName`, creating it on first use. */
export async function ensureTenant(tenantName: string): Promise<string> {
  const store = documentStore();
  const TableName = mainTableName();
  const Key = keys.tenantName(tenantName);
  const existing = await store.send(new GetCommand({ TableName, Key }));
  if (existing.Item) return existing.Item.tenantId as string;
  const tenantId = `tn_${randomUUID().replaceAll('-', '')}`;
  try {
    await store.send(
      new PutCommand({
        TableName,
        Item: { ...Key, tenantId, name: tenantName, createdAt: clock.date().toISOString() },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
    return tenantId;
  } catch (error) {
    if (failedCondition(error) === undefined) throw error;
    // another writer created the same tenant name first
    const winner = await store.send(new GetCommand({ TableName, Key }));
    return winner.Item?.tenantId as string;
  }
}

/**
 * Stores the hash of `apiKey` for the tenant; `apiKey` defaults to a fresh random key.
 * The listing entry is written before the lookup entry, so a key that works is always listed
 * (and so can be revoked), whatever fails in between.
 */
export async function createApiKey(tenantName: string, apiKey: string = generateApiKey()): Promise<{ tenantId: string; keyId: string; apiKey: string }> {
  const tenantId = await ensureTenant(tenantName);
  const keyHash = hashApiKey(apiKey);
  const keyId = `key_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
  const createdAt = clock.date().toISOString();
  const TableName = mainTableName();
  // the listing, the lookup by hash and the audit event: all or none
  await sendAuditedTogether(
    [
      new PutCommand({ TableName, Item: { ...keys.apiKeyListing(tenantId, keyId), keyId, keyHash, tenantName, createdAt } }),
      new PutCommand({ TableName, Item: { ...keys.apiKeyByHash(keyHash), tenantId, keyId, createdAt }, ConditionExpression: 'attribute_not_exists(pk)' }),
    ],
    { tenantId, action: 'api_key.created', target: { type: 'api_key', id: keyId } },
  );
  return { tenantId, keyId, apiKey };
}

/** Stores a key whose value is fixed by configuration (the local demo key); does nothing if it exists. */
export async function ensureApiKey(tenantName: string, apiKey: string): Promise<string> {
  const found = await findTenantIdByKeyHash(hashApiKey(apiKey));
  if (found) return found;
  return (await createApiKey(tenantName, apiKey)).tenantId;
}

async function scanKeyListings(): Promise<Array<Record<string, unknown>>> {
  const items: Array<Record<string, unknown>> = [];
  for await (const item of scanItems({
    FilterExpression: 'begins_with(pk, :tenant) AND begins_with(sk, :key)',
    ExpressionAttributeValues: { ':tenant': keys.tenantPrefix, ':key': keys.apiKeyListingPrefix },
  }))
    items.push(item);
  return items;
}

/** Every key's id and dates (an admin task: it scans). Never the key itself. */
export async function listApiKeys(): Promise<ApiKeyListing[]> {
  const items = await scanKeyListings();
  return items
    .map((item) => ({
      tenantId: keys.tenantIdOf(String(item.pk)),
      tenantName: String(item.tenantName),
      keyId: String(item.keyId),
      createdAt: String(item.createdAt),
      ...(item.revokedAt ? { revokedAt: String(item.revokedAt) } : {}),
    }))
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

/** Deletes the key's lookup entry (requests with it fail from then on) and marks its listing revoked. */
export async function revokeApiKey(keyId: string): Promise<boolean> {
  const listing = (await scanKeyListings()).find((item) => item.keyId === keyId);
  if (!listing) return false;
  if (listing.revokedAt) return true; // revoked before: nothing changes, nothing is recorded
  const TableName = mainTableName();
  try {
    await sendAuditedTogether(
      [
        new DeleteCommand({ TableName, Key: keys.apiKeyByHash(String(listing.keyHash)) }),
        new UpdateCommand({
          TableName,
          Key: { pk: listing.pk, sk: listing.sk },
          UpdateExpression: 'SET revokedAt = :now',
          ConditionExpression: 'attribute_not_exists(revokedAt)',
          ExpressionAttributeValues: { ':now': clock.date().toISOString() },
        }),
      ],
      { tenantId: keys.tenantIdOf(String(listing.pk)), action: 'api_key.revoked', target: { type: 'api_key', id: keyId } },
    );
  } catch (error) {
    if (failedCondition(error) === undefined) throw error; // a concurrent revoke did it
  }
  return true;
}
