import { createHash, randomInt, randomUUID } from 'node:crypto';
import type { Context } from 'aws-lambda';
import { clock } from '../../shared/clock.ts';
import { IdempotencyConflict, PlatformError } from '../../shared/errors.ts';
import { log } from '../../shared/http/logger.ts';
import type { UploadedFile } from '../../shared/http/middleware/multipart-body.ts';
import {
  createCustomAudience,
  MAX_ROWS_PER_BATCH,
  sendAudienceBatch,
  type AudienceMode,
  type BatchAcknowledgement,
} from '../../shared/platforms/social/custom-audiences.ts';
import { socialSession } from '../../shared/platforms/social/session.ts';
import { forgetUploadProgress, loadUploadProgress, releaseUploadLease, saveUploadProgress, type UploadProgress } from '../../shared/store/upload-progress.ts';
import type { User } from '../../shared/store/users.ts';
import { deleteStagedUpload, readStagedUpload, stageUpload, stagedUploadKey } from '../../shared/uploads/staging.ts';
import { CsvProblem } from '../../shared/audiences/csv-reader.ts';
import { forEachContactRow, InvalidRowSamples } from '../../shared/audiences/contact-file.ts';

/**
 * Operation 7 end to end: stage the CSV in S3; read it back once to check it whole (nothing goes
 * upstream for a bad file); create the audience when asked; read it again and send the rows in
 * batches of at most 10,000, one upload session, recording each acknowledged batch so that a retry
 * with the same Idempotency-Key resumes after it.
 */
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

export interface SocialAudienceResult {
  audienceId: string;
  audienceName: string;
  invalid_entry_samples: Record<string, string>;
  num_invalid_entries: number;
  num_received: number;
  session_id: string;
}

/** A positive int64 unique within the ad account: milliseconds × 1000 plus a random tail. */
const newSessionId = () => clock.now() * 1000 + randomInt(1000);

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

  // First pass: the whole file must read, and some row must be usable, before anything is sent.
  let usableRows = 0;
  const checked = await forEachContactRow(await readStagedUpload(stagedKey), (row) => {
    if ('values' in row) usableRows++;
  });
  if (usableRows === 0) {
    const samples = new InvalidRowSamples();
    await forEachContactRow(await readStagedUpload(stagedKey), (row, line) => {
      if ('invalid' in row) samples.add(line, row.invalid);
    });
    const [first] = Object.entries(samples.samples);
    throw new CsvProblem(`None of the ${checked.dataRows} rows can be used${first ? `; for example ${first[0]}: ${first[1]}` : ''}.`);
  }

  const resumed = request.idempotencyKey ? await loadUploadProgress(tenantId, uploadId) : undefined;
  const progress: UploadProgress = {
    sessionId: newSessionId(),
    batchesAcked: 0,
    rowsAcked: 0,
    platformReceived: 0,
    platformInvalid: 0,
    duplicateReceived: 0,
    duplicateInvalid: 0,
    platformSamples: {},
    ...resumed,
  };
  const leaseOwner = randomUUID();
  const save = () => saveUploadProgress(tenantId, uploadId, progress, leaseOwner);
  if (resumed) log().info('resuming audience upload', { batchesAcked: resumed.batchesAcked, inFlightBatch: resumed.inFlightBatch });
  await save(); // takes the lease before anything goes upstream
  try {
    return await sendBatches(request, stagedKey, uploadId, progress, save, usableRows);
  } catch (error) {
    await releaseUploadLease(tenantId, uploadId, leaseOwner);
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

  const local = new InvalidRowSamples();
  let batch: string[][] = [];
  let batchSeq = 0;
  const totalBatches = Math.ceil(usableRows / MAX_ROWS_PER_BATCH);
  const send = async (rows: string[][], schema: Parameters<typeof sendAudienceBatch>[4]) => {
    batchSeq++;
    if (batchSeq <= progress.batchesAcked) return; // acknowledged before this retry
    const resent = progress.inFlightBatch === batchSeq; // the platform may have counted it already
    progress.inFlightBatch = batchSeq;
    await save();
    let acknowledgement: BatchAcknowledgement;
    try {
      acknowledgement = await sendAudienceBatch(
        session,
        mode,
        audienceId,
        { session_id: progress.sessionId, batch_seq: batchSeq, last_batch_flag: batchSeq === totalBatches, estimated_num_total: usableRows },
        schema,
        rows,
      );
    } catch (error) {
      throw describeLandedRows(error, progress, audienceId, usableRows);
    }
    if (resent && acknowledgement.numReceived - progress.platformReceived >= 2 * rows.length) {
      // counted twice: once before the crash, once now; the answer reports distinct rows
      progress.duplicateReceived += rows.length;
      progress.duplicateInvalid += Math.floor((acknowledgement.numInvalid - progress.platformInvalid) / 2);
    }
    progress.batchesAcked = batchSeq;
    progress.inFlightBatch = undefined;
    progress.rowsAcked += rows.length;
    progress.platformReceived = acknowledgement.numReceived;
    progress.platformInvalid = acknowledgement.numInvalid;
    progress.platformSamples = { ...progress.platformSamples, ...acknowledgement.samples };
    await save();
  };

  // Second pass: the same rows, in batches.
  await forEachContactRow(await readStagedUpload(stagedKey), async (row, line, layout) => {
    if ('invalid' in row) return local.add(line, row.invalid);
    batch.push(row.values);
    if (batch.length === MAX_ROWS_PER_BATCH) {
      const full = batch;
      batch = [];
      await send(full, layout.schema);
    }
  }).then(async ({ layout }) => {
    if (batch.length > 0) await send(batch, layout.schema);
  });

  await deleteStagedUpload(stagedKey);
  await forgetUploadProgress(tenantId, uploadId);
  const samples = { ...local.samples };
  for (const [sample, reason] of Object.entries(progress.platformSamples)) {
    if (Object.keys(samples).length >= 100) break;
    samples[sample] = reason;
  }
  return {
    audienceId,
    audienceName: request.audienceName,
    invalid_entry_samples: samples,
    num_invalid_entries: local.count + progress.platformInvalid - progress.duplicateInvalid,
    num_received: local.count + progress.platformReceived - progress.duplicateReceived,
    session_id: String(progress.sessionId),
  };
}

/** The platform failed mid-upload: the answer says what landed and how to resume. */
function describeLandedRows(error: unknown, progress: UploadProgress, audienceId: string, usableRows: number): unknown {
  if (!(error instanceof PlatformError)) return error;
  Object.assign(error.extra, {
    audienceId,
    session_id: String(progress.sessionId),
    rows_landed: progress.rowsAcked,
    rows_total: usableRows,
  });
  error.message = `${error.message} ${progress.rowsAcked} of ${usableRows} rows had landed (session ${progress.sessionId}); retry the same request with the same Idempotency-Key to resume.`;
  return error;
}
