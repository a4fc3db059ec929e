import { randomBytes } from 'node:crypto';
import { clock } from '../core/clock.ts';
import { InvalidRequest, NotFound } from '../core/errors.ts';
import { findUpload, saveUpload, type DirectUpload, type UploadPurpose } from '../store/uploads.ts';
import { presignedPut, stagedObject, stagedUploadKey } from '../storage/staging.ts';

/**
 * Files sent straight to storage (docs/decisions.md "Uploads and audience jobs"): create_upload hands out a
 * presigned PUT that S3 accepts for 15 minutes and for exactly the declared number of bytes (the
 * Content-Length is signed), under the tenant's and user's prefix. The upload is recorded so that
 * an audience request can find it, and only for the same tenant and user (store/uploads.ts).
 */
export const UPLOAD_URL_SECONDS = 15 * 60;
/** the record outlives the URL by the bucket's lifecycle (2 days), so a job started late still finds its file */
const KEEP_SECONDS = 2 * 24 * 60 * 60;

export interface UploadTicket {
  uploadId: string;
  url: string;
  method: 'PUT';
  headers: Record<string, string>;
  expiresAt: string;
}

/** The file name in storage: the purpose's own, never the client's name. */
const EXTENSIONS: Record<string, string> = {
  'text/csv': 'csv',
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/gif': 'gif',
  'video/mp4': 'mp4',
  'video/quicktime': 'mov',
};

export interface UploadRequest {
  fileName: string;
  contentLength: number;
  purpose: UploadPurpose;
  /** the file's type, signed into the PUT (a contact list's is text/csv) */
  contentType: string;
}

export async function createUpload(tenantId: string, userId: string, request: UploadRequest): Promise<UploadTicket> {
  const { fileName, contentLength, purpose, contentType } = request;
  const uploadId = `upl_${randomBytes(16).toString('hex')}`;
  const objectKey = stagedUploadKey(tenantId, userId, uploadId, EXTENSIONS[contentType] ?? 'bin');
  const now = clock.now();
  const upload: DirectUpload = { uploadId, userId, fileName, contentLength, objectKey, createdAt: new Date(now).toISOString(), purpose, contentType };
  await saveUpload(tenantId, upload, Math.floor(now / 1000) + KEEP_SECONDS);
  const headers = { 'content-type': contentType, 'content-length': String(contentLength) };
  const url = await presignedPut(objectKey, contentLength, new Date(now), UPLOAD_URL_SECONDS, contentType);
  return { uploadId, url, method: 'PUT', headers, expiresAt: new Date(now + UPLOAD_URL_SECONDS * 1000).toISOString() };
}

/**
 * The upload `uploadId` of this tenant and user, once its file is in storage with the declared
 * size; unknown, another tenant's or user's, never PUT or of another size are one and the same 404.
 */
export async function findCompletedUpload(
  tenantId: string,
  userId: string,
  uploadId: string,
  purposes: readonly UploadPurpose[] = ['contact_list'],
): Promise<DirectUpload> {
  const notFound = new NotFound(`No upload ${uploadId} with its file for this user: create one with /uploads/create_upload and PUT the file to its URL first.`);
  const upload = await findUpload(tenantId, uploadId);
  if (!upload || upload.userId !== userId || upload.expiresAt * 1000 <= clock.now()) throw notFound;
  const purpose = upload.purpose ?? 'contact_list';
  if (!purposes.includes(purpose))
    throw new InvalidRequest(
      `Upload ${uploadId} was made for ${purpose === 'contact_list' ? 'a contact list' : `an ${purpose}`}; this operation takes ${purposes.map((each) => (each === 'contact_list' ? 'a contact list' : `an ${each}`)).join(' or ')}.`,
      [{ path: 'uploadId', message: `an upload with purpose ${purposes.join(' or ')}` }],
    );
  const stored = await stagedObject(upload.objectKey);
  if (!stored || stored.contentLength !== upload.contentLength) throw notFound;
  const { etag } = stored;
  return {
    uploadId,
    userId: upload.userId,
    fileName: upload.fileName,
    contentLength: upload.contentLength,
    objectKey: upload.objectKey,
    createdAt: upload.createdAt,
    purpose,
    ...(upload.contentType ? { contentType: upload.contentType } : {}),
    ...(etag ? { etag } : {}),
  };
}
