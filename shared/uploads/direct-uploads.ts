import { randomBytes } from 'node:crypto';
import { HeadObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { clock } from '../core/clock.ts';
import { config } from '../core/config.ts';
import { NotFound } from '../core/errors.ts';
import { documentStore, mainTableName, writeIfConditionHolds } from '../store/client.ts';
import { s3, stagedUploadKey } from '../storage/staging.ts';

/**
 * Files sent straight to storage (docs/decisions.md "Uploads and audience jobs"): create_upload hands out a
 * presigned PUT that S3 accepts for 15 minutes and for exactly the declared number of bytes (the
 * Content-Length is signed), under the tenant's and user's prefix. The upload is recorded so that
 * an audience request can find it, and only for the same tenant and user.
 *   TENANT#<t>#UPLOAD#<uploadId> / DIRECT
 */
export const UPLOAD_URL_SECONDS = 15 * 60;
/** the record outlives the URL by the bucket's lifecycle (2 days), so a job started late still finds its file */
const KEEP_SECONDS = 2 * 24 * 60 * 60;

export interface DirectUpload {
  uploadId: string;
  userId: string;
  fileName: string;
  contentLength: number;
  objectKey: string;
  createdAt: string;
  /** the version of the file that was found: a job reads only this one */
  etag?: string;
}

export interface UploadTicket {
  uploadId: string;
  url: string;
  method: 'PUT';
  headers: Record<string, string>;
  expiresAt: string;
}

const key = (tenantId: string, uploadId: string) => ({ pk: `TENANT#${tenantId}#UPLOAD#${uploadId}`, sk: 'DIRECT' });

export async function createUpload(tenantId: string, userId: string, fileName: string, contentLength: number): Promise<UploadTicket> {
  const uploadId = `upl_${randomBytes(16).toString('hex')}`;
  const objectKey = stagedUploadKey(tenantId, userId, uploadId);
  const now = clock.now();
  const upload: DirectUpload = { uploadId, userId, fileName, contentLength, objectKey, createdAt: new Date(now).toISOString() };
  await documentStore().send(
    new PutCommand({ TableName: mainTableName(), Item: { ...key(tenantId, uploadId), ...upload, expiresAt: Math.floor(now / 1000) + KEEP_SECONDS } }),
  );
  const headers = { 'content-type': 'text/csv', 'content-length': String(contentLength) };
  const url = await getSignedUrl(
    s3(),
    new PutObjectCommand({ Bucket: config().UPLOAD_BUCKET, Key: objectKey, ContentLength: contentLength, ContentType: 'text/csv' }),
    // both headers are signed: S3 refuses a body of another length, or another content type
    { expiresIn: UPLOAD_URL_SECONDS, signingDate: new Date(now), signableHeaders: new Set(['content-type', 'content-length']) },
  );
  return { uploadId, url, method: 'PUT', headers, expiresAt: new Date(now + UPLOAD_URL_SECONDS * 1000).toISOString() };
}

/**
 * The upload `uploadId` of this tenant and user, once its file is in storage with the declared
 * size; unknown, another tenant's or user's, never PUT or of another size are one and the same 404.
 */
export async function findCompletedUpload(tenantId: string, userId: string, uploadId: string): Promise<DirectUpload> {
  const notFound = new NotFound(`No upload ${uploadId} with its file for this user: create one with /uploads/create_upload and PUT the file to its URL first.`);
  const { Item } = await documentStore().send(new GetCommand({ TableName: mainTableName(), Key: key(tenantId, uploadId), ConsistentRead: true }));
  const upload = Item as (DirectUpload & { expiresAt: number }) | undefined;
  if (!upload || upload.userId !== userId || upload.expiresAt * 1000 <= clock.now()) throw notFound;
  let etag: string | undefined;
  try {
    const head = await s3().send(new HeadObjectCommand({ Bucket: config().UPLOAD_BUCKET, Key: upload.objectKey }));
    if (head.ContentLength !== upload.contentLength) throw notFound;
    etag = head.ETag;
  } catch (error) {
    if (error === notFound || (error as Error).name === 'NotFound' || (error as Error).name === 'NoSuchKey') throw notFound;
    throw error;
  }
  return {
    uploadId,
    userId: upload.userId,
    fileName: upload.fileName,
    contentLength: upload.contentLength,
    objectKey: upload.objectKey,
    createdAt: upload.createdAt,
    ...(etag ? { etag } : {}),
  };
}

/**
 * An upload starts one job: the first start claims it for its job id, by a conditional write. Answers
 * the id of the job that holds the upload (this one's when the claim was won).
 */
export async function claimUpload(tenantId: string, uploadId: string, jobId: string): Promise<string> {
  const claimed = await writeIfConditionHolds(
    new UpdateCommand({
      TableName: mainTableName(),
      Key: key(tenantId, uploadId),
      UpdateExpression: 'SET jobId = :jobId',
      ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(jobId)',
      ExpressionAttributeValues: { ':jobId': jobId },
    }),
  );
  return claimed ? jobId : ((await uploadHolder(tenantId, uploadId)) ?? '');
}

/** The job that holds the upload, if any. */
export async function uploadHolder(tenantId: string, uploadId: string): Promise<string | undefined> {
  const { Item } = await documentStore().send(new GetCommand({ TableName: mainTableName(), Key: key(tenantId, uploadId), ConsistentRead: true }));
  return Item?.jobId as string | undefined;
}

/** A start that failed before its job was stored lets the upload go, so that a retry can start it. */
export async function releaseUpload(tenantId: string, uploadId: string, jobId: string): Promise<void> {
  await writeIfConditionHolds(
    new UpdateCommand({
      TableName: mainTableName(),
      Key: key(tenantId, uploadId),
      UpdateExpression: 'REMOVE jobId',
      ConditionExpression: 'jobId = :jobId',
      ExpressionAttributeValues: { ':jobId': jobId },
    }),
  );
}
