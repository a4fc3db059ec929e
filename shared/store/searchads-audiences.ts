import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { documentStore, mainTableName } from './client.ts';
import { keys } from './keys.ts';

/**
 * The Customer Match lists made for a user (docs/google-audiences.md): our audience id, which the client
 * holds, and Google's list it names.
 *   TENANT#<t>#USER#<u>#SEARCHADS_AUDIENCE / <audienceId>
 */
export interface SearchadsAudience {
  audienceId: string;
  userListId: string;
  customerId: string;
  name: string;
  createdAt: string;
}

export async function recordSearchadsAudience(tenantId: string, userId: string, audience: SearchadsAudience): Promise<void> {
  await documentStore().send(
    new PutCommand({ TableName: mainTableName(), Item: { ...keys.searchadsAudience(tenantId, userId, audience.audienceId), ...audience } }),
  );
}

export async function findSearchadsAudience(tenantId: string, userId: string, audienceId: string): Promise<SearchadsAudience | undefined> {
  const { Item } = await documentStore().send(
    new GetCommand({ TableName: mainTableName(), Key: keys.searchadsAudience(tenantId, userId, audienceId), ConsistentRead: true }),
  );
  if (!Item) return undefined;
  const { pk: _pk, sk: _sk, ...audience } = Item;
  return audience as SearchadsAudience;
}
