import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { clock } from '../clock.ts';
import { documentStore, mainTableName } from './client.ts';

/**
 * How far an audience upload got: the audience, the platform session and the batches the platform
 * acknowledged, so that the same request retried with its Idempotency-Key resumes after the last
 * acknowledged batch. Kept 24 hours (the platform closes an upload session after 90 minutes anyway).
 *   TENANT#<t>#UPLOAD#<uploadId> / PROGRESS
 */
export interface UploadProgress {
  audienceId?: string;
  sessionId: number;
  batchesAcked: number;
  rowsAcked: number;
  /** the platform's figures from its last acknowledgement (cumulative per session) */
  platformReceived: number;
  platformInvalid: number;
  platformSamples: Record<string, string>;
}

const KEEP_SECONDS = 24 * 60 * 60;
const key = (tenantId: string, uploadId: string) => ({ pk: `TENANT#${tenantId}#UPLOAD#${uploadId}`, sk: 'PROGRESS' });

export async function loadUploadProgress(tenantId: string, uploadId: string): Promise<UploadProgress | undefined> {
  const result = await documentStore().send(new GetCommand({ TableName: mainTableName(), Key: key(tenantId, uploadId) }));
  return result.Item?.progress as UploadProgress | undefined;
}

export async function saveUploadProgress(tenantId: string, uploadId: string, progress: UploadProgress): Promise<void> {
  await documentStore().send(
    new PutCommand({
      TableName: mainTableName(),
      Item: { ...key(tenantId, uploadId), progress, expiresAt: Math.floor(clock.now() / 1000) + KEEP_SECONDS },
    }),
  );
}

export async function forgetUploadProgress(tenantId: string, uploadId: string): Promise<void> {
  await documentStore().send(new DeleteCommand({ TableName: mainTableName(), Key: key(tenantId, uploadId) }));
}
