import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { documentStore, mainTableName, writeIfConditionHolds } from './client.ts';
import { findJob } from './jobs.ts';
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

/**
 * The list's writer: at most one job sends to a list at a time, so that two replaces (or a replace and
 * an append) of one list run one after the other, never interleaved. True when `jobId` holds it now;
 * a holder that ended without letting go (its run died after its end) is taken over.
 *   TENANT#<t>#SEARCHADS_LIST#<audienceId> / WRITER
 */
export async function holdListWriter(tenantId: string, audienceId: string, jobId: string): Promise<boolean> {
  const key = keys.searchadsListWriter(tenantId, audienceId);
  const take = (condition: string, values: Record<string, unknown>) =>
    writeIfConditionHolds(
      new PutCommand({ TableName: mainTableName(), Item: { ...key, jobId }, ConditionExpression: condition, ExpressionAttributeValues: values }),
    );
  if (await take('attribute_not_exists(pk) OR jobId = :me', { ':me': jobId })) return true;
  const { Item } = await documentStore().send(new GetCommand({ TableName: mainTableName(), Key: key, ConsistentRead: true }));
  const holder = Item?.jobId as string | undefined;
  if (!holder) return take('attribute_not_exists(pk)', {});
  const job = await findJob(tenantId, holder);
  if (job && (job.status === 'queued' || job.status === 'running')) return false;
  return take('jobId = :holder', { ':holder': holder });
}

/** The job ended: the next job waiting for the list may write to it. */
export async function releaseListWriter(tenantId: string, audienceId: string, jobId: string): Promise<void> {
  await writeIfConditionHolds(
    new DeleteCommand({
      TableName: mainTableName(),
      Key: keys.searchadsListWriter(tenantId, audienceId),
      ConditionExpression: 'jobId = :me',
      ExpressionAttributeValues: { ':me': jobId },
    }),
  );
}
