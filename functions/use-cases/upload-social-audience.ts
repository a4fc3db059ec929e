import { createHash, randomUUID } from 'node:crypto';
import type { Context } from 'aws-lambda';
import { IdempotencyConflict, PlatformError } from '../../shared/core/errors.ts';
import { log } from '../../shared/core/logger.ts';
import type { UploadedFile } from '../../shared/schemas/uploaded-file.ts';
import { createCustomAudience, newSessionId, type AudienceMode } from '../../shared/platforms/social/custom-audiences.ts';
import { checkContactFile, sendInBatches, sendRecordedBatch, socialAudienceResult, type SocialAudienceResult } from './social-audience-batches.ts';
import { socialSession } from '../../shared/platforms/social/session.ts';
import {
  forgetUploadProgress,
  loadUploadProgress,
  newUploadProgress,
  releaseUploadLease,
  saveUploadProgress,
  type UploadProgress,
} from '../../shared/store/upload-progress.ts';
import type { User } from '../../shared/store/users.ts';
import { deleteStagedUpload, readStagedUpload, stageUpload, stagedUploadKey } from '../../shared/storage/staging.ts';
import { InvalidRowSamples } from '../../shared/audiences/contact-file.ts';

/**
 * Operation 7 end to end: stage the CSV in S3; read it back once to check it whole (nothing goes
 * upstream for a bad file); create the audience when asked; read it again and send the rows in
 * batches of at most 10,000, one upload session, recording each acknowledged batch so that a retry
 * with the same Idempotency-Key resumes after it.
 */
export type { SocialAudienceResult };

export interface SocialAudienceRequest {
  tenantId: string;
  user: User;
  context: Context;
  idempotencyKey: string | undefined;
  audienceName: string;
  mode: AudienceMode;
  audienceId?: string;
  csvFile: UploadedFile;
}

function uploadIdFor(tenantId: string, idempotencyKey: string | undefined): string {
  if (!idempotencyKey) return randomUUID();
  return createHash('sha256').update(`create_social_csv_audience\n${tenantId}\n${idempotencyKey}`).digest('hex').slice(0, 32);
}

export async function uploadSocialAudience(request: SocialAudienceRequest): Promise<SocialAudienceResult> {
  const { tenantId, user } = request;
  const uploadId = uploadIdFor(tenantId, request.idempotencyKey);
  const stagedKey = stagedUploadKey(tenantId, user.userId, uploadId);
  await stageUpload(stagedKey, request.csvFile.content);
  try {
    return await uploadStaged(request, stagedKey, uploadId);
  } catch (error) {
    // whatever failed, the contacts are not kept (a retry sends the file again), unless another live
    // run of the same Idempotency-Key is reading them
    if (!(error instanceof IdempotencyConflict)) await deleteStagedUpload(stagedKey);
    throw error;
  }
}

async function uploadStaged(request: SocialAudienceRequest, stagedKey: string, uploadId: string): Promise<SocialAudienceResult> {
  const { tenantId } = request;
  socialSession(request.user, request.context); // a user without a social connection is a 409 before the file is read
  const { usableRows } = await checkContactFile(() => readStagedUpload(stagedKey));

  const resumed = request.idempotencyKey ? await loadUploadProgress(tenantId, uploadId) : undefined;
  const progress: UploadProgress = { ...newUploadProgress(newSessionId()), ...resumed };
  const leaseOwner = randomUUID();
  const save = () => saveUploadProgress(tenantId, uploadId, progress, leaseOwner);
  if (resumed) log().info('resuming audience upload', { batchesAcked: resumed.batchesAcked, inFlightBatch: resumed.inFlightBatch });
  await save(); // takes the lease before anything goes upstream
  try {
    return await sendBatches(request, stagedKey, uploadId, progress, save, usableRows);
  } catch (error) {
    await releaseUploadLease(tenantId, uploadId, leaseOwner);
    if (error instanceof PlatformError && 'rows_landed' in error.extra) error.message += ' Retry the same request with the same Idempotency-Key to resume.';
    throw error;
  }
}

async function sendBatches(
  request: SocialAudienceRequest,
  stagedKey: string,
  uploadId: string,
  progress: UploadProgress,
  save: () => Promise<void>,
  usableRows: number,
): Promise<SocialAudienceResult> {
  const { tenantId, user, context, mode } = request;
  const session = socialSession(user, context);
  progress.audienceId ??= mode === 'create' ? await createCustomAudience(session, session.connection.adAccountId, request.audienceName) : request.audienceId;
  const audienceId = progress.audienceId as string;
  await save();

  // Second pass: the same rows, in batches.
  const local = new InvalidRowSamples();
  let batchSeq = 0;
  await sendInBatches(await readStagedUpload(stagedKey), {
    invalid: (line, invalid) => local.add(line, invalid),
    batch: async (rows, schema) => {
      batchSeq++;
      if (batchSeq <= progress.batchesAcked) return; // acknowledged before this retry
      await sendRecordedBatch({ session, mode, audienceId, batchSeq, usableRows, schema, rows }, progress, save);
    },
  });

  await deleteStagedUpload(stagedKey);
  await forgetUploadProgress(tenantId, uploadId);
  return socialAudienceResult(audienceId, request.audienceName, local, progress);
}
