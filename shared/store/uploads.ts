import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentStore, mainTableName, writeIfConditionHolds } from './client.ts';
import { keys } from './keys.ts';

/**
 * Direct uploads' records (uploads/direct-uploads.ts hands out the URLs and checks the files):
 *   TENANT#<t>#UPLOAD#<uploadId> / DIRECT   the upload, and the job that holds it once one started
 */
export interface DirectUpload {
  uploadId: string;
  userId: string;
  fileName: string;
  contentLength: number;
  objectKey: string;
  createdAt: string;
  /** what the file is for (a record without one is a contact list, as every upload was before media) */
  purpose?: UploadPurpose;
  /** the type the PUT was signed with */
  contentType?: string;
  /** the version of the file that was found: a job reads only this one */
  etag?: string;
}

export type UploadPurpose = 'contact_list' | 'image' | 'video';

export async function saveUpload(tenantId: string, upload: DirectUpload, expiresAtSeconds: number): Promise<void> {
  await documentStore().send(
    new PutCommand({ TableName: mainTableName(), Item: { ...keys.directUpload(tenantId, upload.uploadId), ...upload, expiresAt: expiresAtSeconds } }),
  );
}

export async function findUpload(tenantId: string, uploadId: string): Promise<(DirectUpload & { expiresAt: number }) | undefined> {
  const { Item } = await documentStore().send(new GetCommand({ TableName: mainTableName(), Key: keys.directUpload(tenantId, uploadId), ConsistentRead: true }));
  return Item as (DirectUpload & { expiresAt: number }) | undefined;
}

/**
 * Where an upload's claim and result are kept: a contact list has one (its job); a media file has one
 * per (platform, ad account) it is sent to (docs/decisions.md, "Media per platform and account"), so
 * the same file sent to a second platform makes that platform's upload.
 */
export const mediaSlot = (platform: string, adAccountId: string) => `${platform}#${adAccountId}`;
const claimNames = (slot?: string) => ({ '#claim': slot ? `jobId#${slot}` : 'jobId' });

/**
 * An upload starts one job (one per slot for media): the first start claims it for its job id, by a
 * conditional write. Answers the id of the job that holds it (this one's when the claim was won).
 */
export async function claimUpload(tenantId: string, uploadId: string, jobId: string, slot?: string): Promise<string> {
  const claimed = await writeIfConditionHolds(
    new UpdateCommand({
      TableName: mainTableName(),
      Key: keys.directUpload(tenantId, uploadId),
      UpdateExpression: 'SET #claim = :jobId',
      ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(#claim)',
      ExpressionAttributeNames: claimNames(slot),
      ExpressionAttributeValues: { ':jobId': jobId },
    }),
  );
  return claimed ? jobId : ((await uploadHolder(tenantId, uploadId, slot)) ?? '');
}

/** The job that holds the upload (in `slot`), if any. */
export async function uploadHolder(tenantId: string, uploadId: string, slot?: string): Promise<string | undefined> {
  const { Item } = await documentStore().send(new GetCommand({ TableName: mainTableName(), Key: keys.directUpload(tenantId, uploadId), ConsistentRead: true }));
  return Item?.[claimNames(slot)['#claim']] as string | undefined;
}

/** A start that failed before its job was stored lets the upload go, so that a retry can start it. */
export async function releaseUpload(tenantId: string, uploadId: string, jobId: string, slot?: string): Promise<void> {
  await writeIfConditionHolds(
    new UpdateCommand({
      TableName: mainTableName(),
      Key: keys.directUpload(tenantId, uploadId),
      UpdateExpression: 'REMOVE #claim',
      ConditionExpression: '#claim = :jobId',
      ExpressionAttributeNames: claimNames(slot),
      ExpressionAttributeValues: { ':jobId': jobId },
    }),
  );
}

/** What the platform made of a media upload in `slot`, if a call made it. */
export const uploadMedia = (upload: DirectUpload, slot: string): Record<string, unknown> | undefined =>
  (upload as unknown as Record<string, Record<string, unknown> | undefined>)[`media#${slot}`];

/** A media upload's platform object in `slot`, kept on the upload by the call that holds it. */
export async function saveUploadMedia(tenantId: string, uploadId: string, slot: string, holder: string, media: Record<string, unknown>): Promise<void> {
  await writeIfConditionHolds(
    new UpdateCommand({
      TableName: mainTableName(),
      Key: keys.directUpload(tenantId, uploadId),
      UpdateExpression: 'SET #media = :media',
      ConditionExpression: '#claim = :holder',
      ExpressionAttributeNames: { ...claimNames(slot), '#media': `media#${slot}` },
      ExpressionAttributeValues: { ':media': media, ':holder': holder },
    }),
  );
}
