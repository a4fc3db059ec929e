import { createHash } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { documentStore, mainTableName } from './client.ts';
import { keys } from './keys.ts';

/** Which tenant an API key belongs to: the lookup every request makes (keys are stored as SHA-256 hashes). */
export function hashApiKey(apiKey: string): string {
  return createHash('sha256').update(apiKey, 'utf8').digest('hex');
}

export async function findTenantIdByKeyHash(keyHash: string): Promise<string | undefined> {
  const result = await documentStore().send(new GetCommand({ TableName: mainTableName(), Key: keys.apiKeyByHash(keyHash), ProjectionExpression: 'tenantId' }));
  return result.Item?.tenantId as string | undefined;
}
