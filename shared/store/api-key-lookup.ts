import { createHash } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { documentStore, mainTableName } from './client.ts';
import { keys } from './keys.ts';

/** Which tenant an API key belongs to: the lookup every request makes (keys are stored as SHA-256 hashes). */
export function hashApiKey(apiKey: string): string {
  return createHash('sha256').update(apiKey, 'utf8').digest('hex');
}

/** A known API key: its tenant, and its id (what the audit log names as the actor; never the key). */
export interface ApiKeyOwner {
  tenantId: string;
  keyId: string;
}

export async function findApiKey(keyHash: string): Promise<ApiKeyOwner | undefined> {
  const { Item } = await documentStore().send(
    new GetCommand({ TableName: mainTableName(), Key: keys.apiKeyByHash(keyHash), ProjectionExpression: 'tenantId, keyId' }),
  );
  return Item ? { tenantId: String(Item.tenantId), keyId: String(Item.keyId) } : undefined;
}

export const findTenantIdByKeyHash = async (keyHash: string): Promise<string | undefined> => (await findApiKey(keyHash))?.tenantId;
