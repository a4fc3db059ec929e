import * as z from 'zod';
import { clock } from '../../../shared/core/clock.ts';
import { PlatformError } from '../../../shared/core/errors.ts';
import { exactlyOnce, type StepStore } from '../../../shared/core/exactly-once.ts';
import { CsvProblem } from '../../../shared/audiences/csv-reader.ts';
import { forEachContactRow, InvalidRowSamples, type ContactFileResume } from '../../../shared/audiences/contact-file.ts';
import type { ContactKey } from '../../../shared/platforms/social/contact-keys.ts';
import {
  AudienceRows,
  MAX_ROWS_PER_BATCH,
  sendAudienceBatch,
  type AudienceMode,
  type BatchAcknowledgement,
} from '../../../shared/platforms/social/custom-audiences.ts';
import type { SocialSession } from '../../../shared/platforms/social/client.ts';

/**
 * How far the sending of a social list got: the audience, the platform's upload session, the batches
 * the platform acknowledged and the one in flight, so that a resumed run goes on after the last
 * acknowledged batch (resending the one in flight, with its number).
 */
export const uploadProgressSchema = z.object({
  audienceId: z.string().optional(),
  sessionId: z.number(),
  batchesAcked: z.number(),
  rowsAcked: z.number(),
  /** the batch sent and not yet acknowledged: a resume sends it again with the same number */
  inFlightBatch: z.number().optional(),
  /** the platform's figures from its last acknowledgement (cumulative per session) */
  platformReceived: z.number(),
  platformInvalid: z.number(),
  /** what the platform counted twice because a batch was resent after a crash */
  duplicateReceived: z.number(),
  duplicateInvalid: z.number(),
  platformSamples: z.record(z.string(), z.string()),
});
export type UploadProgress = z.infer<typeof uploadProgressSchema>;

/** Nothing sent yet, in upload session `sessionId`. */
export function newUploadProgress(sessionId: number): UploadProgress {
  return { sessionId, batchesAcked: 0, rowsAcked: 0, platformReceived: 0, platformInvalid: 0, duplicateReceived: 0, duplicateInvalid: 0, platformSamples: {} };
}

/**
 * What both ways of sending a social contact list share (the multipart request, and the audience
 * job of an upload): the check of the whole file before anything is sent, one batch's round trip
 * with its bookkeeping, and the counts the answer reports.
 */

/** The whole file must read, and some row must be usable, before anything is sent. */
export async function checkContactFile(read: () => Promise<AsyncIterable<Uint8Array>>, onRow?: () => void): Promise<{ usableRows: number; dataRows: number }> {
  let usableRows = 0;
  const checked = await forEachContactRow(
    await read(),
    (row) => {
      if ('values' in row) usableRows++;
      onRow?.();
    },
    { hash: false }, // which rows are usable needs no hash
  );
  if (usableRows === 0) {
    const samples = new InvalidRowSamples();
    await forEachContactRow(
      await read(),
      (row, line) => {
        if ('invalid' in row) samples.add(line, row.invalid);
      },
      { hash: false },
    );
    const [first] = Object.entries(samples.samples);
    throw new CsvProblem(`None of the ${checked.dataRows} rows can be used${first ? `; for example ${first[0]}: ${first[1]}` : ''}.`);
  }
  return { usableRows, dataRows: checked.dataRows };
}

/**
 * The usable rows of a contact file in batches of 10,000, in order; the unusable ones go to
 * `invalid`. Each batch is sent (awaited) before the file is read on, with where a read after its
 * last row would pick up. A resume either skips the rows sent before (`skipRows`: counted, not
 * hashed) or reads the file from where the last batch ended (`from`).
 */
export async function sendInBatches(
  bytes: AsyncIterable<Uint8Array>,
  handlers: {
    invalid: (line: number, invalid: { column: string; reason: string }) => void;
    batch: (rows: AudienceRows, schema: ContactKey[], resumeAfter: ContactFileResume) => Promise<void>;
  },
  start: { skipRows?: number; from?: ContactFileResume } = {},
): Promise<void> {
  const batch = new AudienceRows();
  let last: (() => ContactFileResume) | undefined;
  const { layout } = await forEachContactRow(
    bytes,
    async (row, line, layout, resumeAfter) => {
      last = resumeAfter;
      if ('invalid' in row) return handlers.invalid(line, row.invalid);
      batch.add(row.values);
      if (batch.count === MAX_ROWS_PER_BATCH) {
        await handlers.batch(batch, layout.schema, resumeAfter());
        batch.clear();
      }
    },
    start,
  );
  if (batch.count > 0 && last) await handlers.batch(batch, layout.schema, last());
}

export interface BatchToSend {
  session: SocialSession;
  mode: AudienceMode;
  audienceId: string;
  batchSeq: number;
  usableRows: number;
  schema: ContactKey[];
  rows: AudienceRows;
}

/**
 * One batch of the session: recorded as in flight before it is sent (a resume sends it again with
 * the same number), then acknowledged. When the platform counted a batch twice (however it came to be
 * sent twice), the duplicate is noted so that the answer reports distinct rows.
 */
export async function sendRecordedBatch(batch: BatchToSend, progress: UploadProgress, save: () => Promise<void>): Promise<void> {
  const { batchSeq, rows } = batch;
  const last = batchSeq === Math.ceil(batch.usableRows / MAX_ROWS_PER_BATCH);
  await exactlyOnce({
    store: batchSteps(progress, rows.count, save),
    key: batchSeq,
    decide: async () => ({ intent: batchSeq }),
    perform: async () => {
      try {
        return await sendAudienceBatch(
          batch.session,
          batch.mode,
          batch.audienceId,
          { session_id: progress.sessionId, batch_seq: batchSeq, last_batch_flag: last, estimated_num_total: batch.usableRows },
          batch.schema,
          rows,
        );
      } catch (error) {
        if (!(last && closedByOurLastBatch(error, progress))) throw describeLandedRows(error, progress, batch.audienceId, batch.usableRows);
        // the last batch landed and closed the session; its answer was lost and the resend found it closed: counted once
        return { numReceived: progress.platformReceived + rows.count, numInvalid: progress.platformInvalid, samples: {} };
      }
    },
  });
}

/**
 * The session's batches as exactly-once steps (core/exactly-once.ts) kept in the job's checkpoint: a
 * batch in flight is a step in progress (a resumed run sends it again with its number), an
 * acknowledged one a completed step, whose acknowledgement moves the counts in the same save.
 */
function batchSteps(progress: UploadProgress, rowCount: number, save: () => Promise<void>): StepStore<number, number, BatchAcknowledgement> {
  return {
    find: async (seq) =>
      seq <= progress.batchesAcked
        ? { status: 'completed', intent: seq, result: { numReceived: progress.platformReceived, numInvalid: progress.platformInvalid, samples: {} } }
        : progress.inFlightBatch === seq
          ? { status: 'in_progress', intent: seq }
          : undefined,
    begin: async (seq) => {
      progress.inFlightBatch = seq;
      await save();
      return true;
    },
    complete: async (seq, acknowledgement) => {
      // counted twice: sent again after a crash or a cut (the step found in progress), or by the
      // upstream core's own retry of an answer that never came; a batch counted once adds its rows once
      if (acknowledgement.numReceived - progress.platformReceived >= 2 * rowCount) {
        progress.duplicateReceived += rowCount;
        progress.duplicateInvalid += Math.floor((acknowledgement.numInvalid - progress.platformInvalid) / 2);
      }
      progress.batchesAcked = seq;
      progress.inFlightBatch = undefined;
      progress.rowsAcked += rowCount;
      progress.platformReceived = acknowledgement.numReceived;
      progress.platformInvalid = acknowledgement.numInvalid;
      progress.platformSamples = { ...progress.platformSamples, ...acknowledgement.samples };
      await save();
      return true;
    },
  };
}

/** The platform's "this upload session has already finished" (2650/1870159). */
const SESSION_FINISHED = 1870159;
/** The platform closes a session on its own 90 minutes after its first batch (docs/csv.md). */
const SESSION_LIFETIME_MS = 90 * 60 * 1000;

/**
 * Whether the session is closed because our last batch was taken: a resend of it (after a lost answer)
 * is refused as "already finished" while the session is younger than the platform's own closing time,
 * which the session id, our millisecond clock × 1000, tells.
 */
function closedByOurLastBatch(error: unknown, progress: UploadProgress): boolean {
  if (!(error instanceof PlatformError) || error.extra.platformSubcode !== SESSION_FINISHED) return false;
  return clock.now() - Math.floor(progress.sessionId / 1000) < SESSION_LIFETIME_MS;
}

/** The platform failed mid-upload: the error says what landed. */
function describeLandedRows(error: unknown, progress: UploadProgress, audienceId: string, usableRows: number): unknown {
  if (!(error instanceof PlatformError)) return error;
  Object.assign(error.extra, { audienceId, session_id: String(progress.sessionId), rows_landed: progress.rowsAcked, rows_total: usableRows });
  error.message = `${error.message} ${progress.rowsAcked} of ${usableRows} rows had landed (session ${progress.sessionId}).`;
  return error;
}

export interface SocialAudienceResult {
  audienceId: string;
  audienceName: string;
  invalid_entry_samples: Record<string, string>;
  num_invalid_entries: number;
  num_received: number;
  session_id: string;
}

/** Operation 7's answer: our own unusable rows with the platform's final counts (distinct rows). */
export function socialAudienceResult(
  audienceId: string,
  audienceName: string,
  local: { count: number; samples: Record<string, string> },
  progress: UploadProgress,
): SocialAudienceResult {
  const samples = { ...local.samples };
  for (const [sample, reason] of Object.entries(progress.platformSamples)) {
    if (Object.keys(samples).length >= 100) break;
    samples[sample] = reason;
  }
  return {
    audienceId,
    audienceName,
    invalid_entry_samples: samples,
    num_invalid_entries: local.count + progress.platformInvalid - progress.duplicateInvalid,
    num_received: local.count + progress.platformReceived - progress.duplicateReceived,
    session_id: String(progress.sessionId),
  };
}
