import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { clock } from '../core/clock.ts';
import { config } from '../core/config.ts';
import { IdempotencyConflict } from '../core/errors.ts';
import { documentStore, mainTableName } from './client.ts';
import { keys } from './keys.ts';

/**
 * How far an audience upload got: the audience, the platform session, the batches the platform
 * acknowledged and the one in flight, so that the same request retried with its Idempotency-Key
 * resumes after the last acknowledged batch (resending the one in flight, with its number). Kept 24
 * hours (the platform closes an upload session after 90 minutes anyway).
 *   TENANT#<t>#UPLOAD#<uploadId> / PROGRESS
 * Each save renews a short lease held by one invocation: a retry after a crash takes over once the
 * lease lapses (seconds, not the function's timeout), and two live runs of one upload never interleave.
 */
export interface UploadProgress {
  audienceId?: string;
  sessionId: number;
  batchesAcked: number;
  rowsAcked: number;
  /** the batch sent and not yet acknowledged: a resume sends it again with the same number */
  inFlightBatch?: number;
  /** the platform's figures from its last acknowledgement (cumulative per session) */
  platformReceived: number;
  platformInvalid: number;
  /** what the platform counted twice because a batch was resent after a crash */
  duplicateReceived: number;
  duplicateInvalid: number;
  platformSamples: Record<string, string>;
}

/** Nothing sent yet, in upload session `sessionId`. */
export function newUploadProgress(sessionId: number): UploadProgress {
  return { sessionId, batchesAcked: 0, rowsAcked: 0, platformReceived: 0, platformInvalid: 0, duplicateReceived: 0, duplicateInvalid: 0, platformSamples: {} };
}

const KEEP_SECONDS = 24 * 60 * 60;

export async function loadUploadProgress(tenantId: string, uploadId: string): Promise<UploadProgress | undefined> {
  const result = await documentStore().send(new GetCommand({ TableName: mainTableName(), Key: keys.uploadProgress(tenantId, uploadId), ConsistentRead: true }));
  return result.Item?.progress as UploadProgress | undefined;
}

/** Saves the progress and renews `owner`'s lease; another live owner's lease is a 409. */
export async function saveUploadProgress(tenantId: string, uploadId: string, progress: UploadProgress, owner: string): Promise<void> {
  const now = clock.now();
  try {
    await documentStore().send(
      new PutCommand({
        TableName: mainTableName(),
        Item: {
          ...keys.uploadProgress(tenantId, uploadId),
          progress,
          leaseOwner: owner,
          leaseUntil: now + config().UPLOAD_LEASE_MS,
          expiresAt: Math.floor(now / 1000) + KEEP_SECONDS,
        },
        ConditionExpression: 'attribute_not_exists(pk) OR leaseOwner = :owner OR leaseUntil < :now',
        ExpressionAttributeValues: { ':owner': owner, ':now': now },
      }),
    );
  } catch (error) {
    if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
    throw new IdempotencyConflict('A request with this Idempotency-Key is still being processed; retry in a few seconds.');
  }
}

/** A run that ended in an error gives its lease up, so the client's retry resumes at once. */
export async function releaseUploadLease(tenantId: string, uploadId: string, owner: string): Promise<void> {
  await documentStore()
    .send(
      new UpdateCommand({
        TableName: mainTableName(),
        Key: keys.uploadProgress(tenantId, uploadId),
        UpdateExpression: 'SET leaseUntil = :zero',
        ConditionExpression: 'leaseOwner = :owner',
        ExpressionAttributeValues: { ':zero': 0, ':owner': owner },
      }),
    )
    .catch((error: Error) => {
      if (error.name !== 'ConditionalCheckFailedException') throw error;
    });
}

export async function forgetUploadProgress(tenantId: string, uploadId: string): Promise<void> {
  await documentStore().send(new DeleteCommand({ TableName: mainTableName(), Key: keys.uploadProgress(tenantId, uploadId) }));
}
