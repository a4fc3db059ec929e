import { DeleteObjectCommand, GetObjectCommand, type GetObjectCommandOutput, HeadObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { Readable } from 'node:stream';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { config } from '../core/config.ts';
import { Conflict } from '../core/errors.ts';
import { AWS_REQUEST_HANDLER } from '../core/aws-timeouts.ts';

/**
 * Uploaded CSVs are staged in S3 before they are processed, under a key per tenant, user and
 * upload, and read back as a stream. The caller deletes a staged file once its request ends.
 */
let client: S3Client | undefined;

function s3(): S3Client {
  client ??= new S3Client({
    requestHandler: AWS_REQUEST_HANDLER,
    forcePathStyle: config().S3_FORCE_PATH_STYLE,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  return client;
}

export function stagedUploadKey(tenantId: string, userId: string, uploadId: string, extension = 'csv'): string {
  return `uploads/${tenantId}/${encodeURIComponent(userId)}/${uploadId}.${extension}`;
}

export async function stageUpload(key: string, content: Buffer, contentType = 'text/csv'): Promise<void> {
  const kmsKey = config().UPLOAD_KMS_KEY_ID;
  await s3().send(
    new PutObjectCommand({
      Bucket: config().UPLOAD_BUCKET,
      Key: key,
      Body: content,
      ContentType: contentType,
      ...(kmsKey ? { ServerSideEncryption: 'aws:kms', SSEKMSKeyId: kmsKey } : {}),
    }),
  );
}

/**
 * A file of unknown length (a URL's body) streamed into the bucket in 8 MiB parts, one at a time, so
 * memory stays flat whatever its size (@aws-sdk/lib-storage's multipart upload). A failed upload leaves
 * its parts to the bucket's rule that aborts incomplete multipart uploads. Answers the object's ETag
 * and size.
 */
export async function stageStream(key: string, body: AsyncIterable<Uint8Array>, contentType: string): Promise<{ etag: string; contentLength: number }> {
  const kmsKey = config().UPLOAD_KMS_KEY_ID;
  await new Upload({
    client: s3(),
    params: {
      Bucket: config().UPLOAD_BUCKET,
      Key: key,
      Body: Readable.from(body),
      ContentType: contentType,
      ...(kmsKey ? { ServerSideEncryption: 'aws:kms', SSEKMSKeyId: kmsKey } : {}),
    },
    partSize: 8 * 1024 * 1024,
    queueSize: 1,
    leavePartsOnError: true,
  }).done();
  const staged = await stagedObject(key);
  return { etag: staged?.etag ?? '', contentLength: staged?.contentLength ?? 0 };
}

/**
 * The staged file as a byte stream; each call reads it anew (from `fromByte` on, when given). With
 * `etag`, only that version of the object is read: a file replaced since it was checked is a 409
 * CONFLICT, never a mix of two files.
 */
export async function readStagedUpload(key: string, fromByte = 0, etag?: string, toByte?: number): Promise<AsyncIterable<Uint8Array>> {
  let object: GetObjectCommandOutput;
  try {
    object = await s3().send(
      new GetObjectCommand({
        Bucket: config().UPLOAD_BUCKET,
        Key: key,
        ...(fromByte > 0 || toByte !== undefined ? { Range: `bytes=${fromByte}-${toByte ?? ''}` } : {}),
        ...(etag ? { IfMatch: etag } : {}),
      }),
    );
  } catch (error) {
    if ((error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 412 || (error as Error).name === 'PreconditionFailed') {
      throw new Conflict('The uploaded file was replaced after the job checked it, so it was not sent on; upload it again with a new /uploads/create_upload.');
    }
    throw error;
  }
  if (!object.Body) throw new Error('Staged upload has no body');
  return object.Body as AsyncIterable<Uint8Array>;
}

export async function deleteStagedUpload(key: string): Promise<void> {
  await s3().send(new DeleteObjectCommand({ Bucket: config().UPLOAD_BUCKET, Key: key }));
}

/** A URL to PUT exactly `contentLength` bytes of `contentType` to `key`: both headers are signed, so S3 refuses a body of another length or type. */
export function presignedPut(key: string, contentLength: number, signingDate: Date, expiresIn: number, contentType = 'text/csv'): Promise<string> {
  return getSignedUrl(s3(), new PutObjectCommand({ Bucket: config().UPLOAD_BUCKET, Key: key, ContentLength: contentLength, ContentType: contentType }), {
    expiresIn,
    signingDate,
    signableHeaders: new Set(['content-type', 'content-length']),
  });
}

/** The staged object's size and version, or undefined when there is none. */
export async function stagedObject(key: string): Promise<{ contentLength?: number; etag?: string } | undefined> {
  try {
    const head = await s3().send(new HeadObjectCommand({ Bucket: config().UPLOAD_BUCKET, Key: key }));
    return { ...(head.ContentLength !== undefined ? { contentLength: head.ContentLength } : {}), ...(head.ETag ? { etag: head.ETag } : {}) };
  } catch (error) {
    if ((error as Error).name === 'NotFound' || (error as Error).name === 'NoSuchKey') return undefined;
    throw error;
  }
}

/** Bytes [start, end) of a staged file, read whole: one chunk of a video, the size the platform asked for. */
export async function readStagedRange(key: string, start: number, end: number, etag?: string): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of await readStagedUpload(key, start, etag, end - 1)) chunks.push(chunk);
  const bytes = Buffer.concat(chunks);
  if (bytes.length !== end - start) throw new Error(`Staged upload gave ${bytes.length} bytes for ${end - start}`);
  return bytes;
}

/** A GET of the object that works for `expiresIn` seconds (as long as the signing credentials last), for a download link. */
export function presignedGet(key: string, expiresIn: number, fileName?: string): Promise<string> {
  return getSignedUrl(
    s3(),
    new GetObjectCommand({
      Bucket: config().UPLOAD_BUCKET,
      Key: key,
      ...(fileName ? { ResponseContentDisposition: `attachment; filename="${fileName}"` } : {}),
    }),
    { expiresIn },
  );
}
