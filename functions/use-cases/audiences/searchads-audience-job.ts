import * as z from 'zod';
import { contactLayout } from '../../../shared/audiences/contact-rows.ts';
import { CsvProblem, readCsv } from '../../../shared/audiences/csv-reader.ts';
import { checkGoogleContactFile, googleLayout, googleMember } from '../../../shared/audiences/google-members.ts';
import { RepeatedCells } from '../../../shared/audiences/repeated-cells.ts';
import { sha256Hex } from '../../../shared/audiences/sha256.ts';
import { clock } from '../../../shared/core/clock.ts';
import { config } from '../../../shared/core/config.ts';
import { EuDeclarationRequired, PlatformRejected } from '../../../shared/core/errors.ts';
import { searchadsSession, type SearchadsSession } from '../../../shared/platforms/searchads/client.ts';
import {
  createUserList,
  MEMBERS_PER_REQUEST,
  removeAllMembers,
  requestStatus,
  sendMembers,
  type UserIdentifier,
  userListsCoded,
} from '../../../shared/platforms/searchads/data-manager.ts';
import { consentSchema, searchadsAudienceModeSchema } from '../../../shared/schemas/audiences.ts';
import type { Job } from '../../../shared/store/jobs.ts';
import { holdListWriter, recordSearchadsAudience, releaseListWriter } from '../../../shared/store/searchads-audiences.ts';
import type { User } from '../../../shared/store/users.ts';
import { noteDeclarationRequired } from '../../../shared/webhooks/declaration-required.ts';
import { throttleDataManager } from '../jobs/data-manager-quota.ts';
import { defineJobKind } from '../jobs/job-kind.ts';
import { JobEnded, type JobRun, Pause } from '../jobs/job-run.ts';
import { readJobFile } from '../jobs/job-files.ts';
import { FINAL_REQUEST_STATUSES, followGoogleRequests } from '../jobs/google-requests.ts';
import { checkpointCreateStore, createOnce, sendInOrder } from '../jobs/steps.ts';
import { dropContacts } from './contacts-kept.ts';

/**
 * A contact list into a search-ads Customer Match list, through Google's Data Manager API
 * (docs/google-audiences.md): the list made once (mode create; read back by its integration code after
 * a lost answer), the rows normalised and hashed by Google's rules and sent in order, at most 10,000
 * members a request, the checkpoint saved after each accepted one (its request id and where the file
 * resumes), then every request followed to its end, on queue delays (5 s after the last accepted one,
 * doubling up to 30 minutes, for at most 72 hours). `replace` is Google's recipe: everything added, then
 * every member last added before the job began removed. Writes are throttled for the whole service (the
 * quota is our Cloud project's), with a share per tenant.
 */
export const searchadsJobRequestSchema = z.object({
  objectKey: z.string(),
  etag: z.string().optional(),
  mode: searchadsAudienceModeSchema,
  audienceId: z.string(),
  audienceName: z.string(),
  consent: consentSchema,
  /** a list made elsewhere (an id of digits), or ours once made */
  userListId: z.string().optional(),
  /** when the job was asked for (epoch ms): replace removes what was added before it */
  startedAtMs: z.number(),
  /** who stated the Customer Match terms accepted, and when (the call that started the job) */
  termsAcceptedAt: z.string(),
});
type SearchadsJobRequest = z.infer<typeof searchadsJobRequestSchema>;

const sentRequestSchema = z.object({
  requestId: z.string(),
  rows: z.number(),
  members: z.number(),
  /** once final: SUCCESS, PARTIAL_SUCCESS, FAILED or REQUEST_STATUS_UNKNOWN */
  status: z.string().optional(),
  failed: z.number().optional(),
  reasons: z.record(z.string(), z.number()).optional(),
  matchRateRange: z.string().optional(),
});
type SentRequest = z.infer<typeof sentRequestSchema>;

export const searchadsCheckpointSchema = z.object({
  /** the whole file was read and found usable before anything was sent (docs/csv.md) */
  checked: z.boolean().optional(),
  /** when this job began writing to an existing list, once it held the list (replace removes what came before) */
  writingFromMs: z.number().optional(),
  /** how often it found the list held by another job */
  listWaits: z.number().optional(),
  userListId: z.string().optional(),
  listCreateSentAt: z.number().optional(),
  /** where the file's next unsent row begins, and the columns read from its header */
  resume: z.object({ byte: z.number(), line: z.number(), delimiter: z.string(), dataRows: z.number(), names: z.array(z.string()) }).optional(),
  sent: z.array(sentRequestSchema).default([]),
  allSent: z.boolean().optional(),
  invalid: z.number().default(0),
  ignoredColumns: z.array(z.string()).optional(),
  /** the statuses' reads so far, and when the last request was accepted */
  polls: z.number().default(0),
  lastAcceptedAt: z.number().optional(),
  /** replace's removeAll, a create-once step: when it was sent, the request id it got; then its status followed */
  removeAllSentAt: z.number().optional(),
  removeAllRequestId: z.string().optional(),
  removeAll: sentRequestSchema.optional(),
});
type SearchadsCheckpoint = z.infer<typeof searchadsCheckpointSchema>;
type SearchadsAudienceJob = Job<SearchadsJobRequest, SearchadsCheckpoint>;

export interface SearchadsAudienceResult {
  audienceId: string;
  userListId: string;
  received: number;
  invalid: number;
  matchRateRange?: string;
  warnings?: string[];
}

export const searchadsAudienceJob = defineJobKind({
  type: 'searchads_audience',
  request: searchadsJobRequestSchema,
  checkpoint: searchadsCheckpointSchema,
  platformOf: () => 'searchads',
  run: runSearchadsAudienceJob,
  endEvents: { succeeded: 'audience_job.succeeded', failed: 'audience_job.failed' },
  endAudit: (job) => ({
    action: job.request.mode === 'create' ? 'audience.created' : 'audience.updated',
    target: { type: 'audience', id: job.request.audienceId },
    platform: 'searchads',
    changes: { job: { to: job.jobId }, mode: { to: job.request.mode }, rows: { to: job.progress.rowsSent } },
  }),
  afterEnd: async (job) => {
    await dropContacts(job);
    if (job.request.mode !== 'create') await releaseListWriter(job.tenantId, job.request.audienceId, job.jobId);
  },
});

/** How long a job waits on the queue before it asks again for a list another job is writing to: 5 s (configured), doubling up to 5 minutes. */
const listBusySeconds = (waits: number) => Math.min(300, config().SEARCHADS_FIRST_WAIT_SECONDS * 2 ** waits);

/**
 * replace removes what was last added before the job began, less this margin for clock skew. Small on
 * purpose: a margin of minutes would keep, unseen, the members an upload made just before the replace
 * (docs/google-audiences.md, "Replace").
 */
const REPLACE_MARGIN_MS = 2_000;

export async function runSearchadsAudienceJob(run: JobRun, job: SearchadsAudienceJob, user: User): Promise<SearchadsAudienceResult> {
  const { request, checkpoint } = job;
  const session = searchadsSession(user, run.context);
  try {
    if (!checkpoint.checked) {
      // a file that cannot be read makes no list and sends nothing
      await checkGoogleContactFile(await readJobFile(run, request, { countBytes: true })).catch((error: unknown) => {
        throw error instanceof CsvProblem ? new JobEnded(error) : error;
      });
      checkpoint.checked = true;
      await run.save();
    }
    if (request.mode !== 'create' && checkpoint.writingFromMs === undefined) {
      // one job writes to a list at a time: two replaces run one after the other, never at once
      if (!(await holdListWriter(job.tenantId, request.audienceId, job.jobId))) {
        checkpoint.listWaits = (checkpoint.listWaits ?? 0) + 1;
        await run.save();
        throw new Pause(listBusySeconds(checkpoint.listWaits - 1));
      }
      checkpoint.writingFromMs = clock.now();
      await run.save();
    }
    const userListId = request.userListId ?? checkpoint.userListId ?? (await createListOnce(run, job, session));
    if (!checkpoint.allSent) await sendRows(run, job, session, userListId);
    await followToTheEnd(run, job, session, checkpoint.sent);
    if (request.mode === 'replace') {
      if (!checkpoint.removeAll) {
        const requestId = await createOnce({
          store: checkpointCreateStore(run, checkpoint, { sentAt: 'removeAllSentAt', id: 'removeAllRequestId' }),
          key: 'removeAll',
          send: async () => {
            await throttleDataManager(job.tenantId);
            // what was last added before this job began writing (after any replace it waited for) goes
            const from = Math.max(request.startedAtMs, checkpoint.writingFromMs ?? 0);
            return removeAllMembers(session, userListId, new Date(from - REPLACE_MARGIN_MS));
          },
          // Google names no request but by the id it answered; removing as of the same time again does no harm
          readBack: async () => undefined,
        });
        checkpoint.removeAll = { requestId, rows: 0, members: 0 };
        Object.assign(checkpoint, { lastAcceptedAt: clock.now(), polls: 0 });
        await run.save();
      }
      await followToTheEnd(run, job, session, [checkpoint.removeAll]);
    }
    return resultOf(job, userListId);
  } catch (error) {
    if (error instanceof EuDeclarationRequired) await noteDeclarationRequired(job.tenantId, job.userId, error);
    throw error;
  }
}

/** The Customer Match list, made once: a create whose answer was lost is read back by our audience id before another is sent. */
async function createListOnce(run: JobRun, job: SearchadsAudienceJob, session: SearchadsSession): Promise<string> {
  const { request, checkpoint } = job;
  const store = checkpointCreateStore(run, checkpoint, { sentAt: 'listCreateSentAt', id: 'userListId' });
  const userListId = await createOnce({
    store,
    key: 'userList',
    send: () => createUserList(session, { audienceId: request.audienceId, name: request.audienceName }),
    readBack: async () => {
      const found = await userListsCoded(session, request.audienceId);
      if (found.length > 1)
        throw new JobEnded(
          new PlatformRejected('searchads', `Google holds ${found.length} lists coded ${request.audienceId}; which one this job made is unknown.`, {
            platformCode: 'UNKNOWN_OUTCOME',
          }),
        );
      return found[0];
    },
  });
  await recordSearchadsAudience(job.tenantId, job.userId, {
    audienceId: request.audienceId,
    userListId,
    customerId: session.customerId,
    name: request.audienceName,
    createdAt: new Date(clock.now()).toISOString(),
  });
  return userListId;
}

/**
 * The file's rows from where the last accepted request ended, as members, in requests of at most
 * 10,000, on the engine's send-in-order step: each accepted one saved with where the next begins, so a
 * run that dies sends again at most the one request it had not heard back from.
 */
async function sendRows(run: JobRun, job: SearchadsAudienceJob, session: SearchadsSession, userListId: string): Promise<void> {
  const { request, checkpoint } = job;
  const batches = memberBatches(run, job);
  await sendInOrder(run, {
    next: async () => {
      const read = await batches.next();
      return read.done ? undefined : read.value;
    },
    send: async (batch) => {
      if (batch.members.length === 0) return undefined; // the file's last rows, all unusable: only where it ended is saved
      await throttleDataManager(job.tenantId);
      const change = request.mode === 'remove' ? ({ kind: 'remove' } as const) : ({ kind: 'ingest', consent: request.consent } as const);
      return sendMembers(session, userListId, change, batch.members);
    },
    acknowledge: (batch, requestId) => {
      if (requestId !== undefined) {
        checkpoint.sent.push({ requestId, rows: batch.rows, members: batch.members.length });
        job.progress.rowsSent += batch.members.length;
        job.progress.batchesSent++;
        checkpoint.lastAcceptedAt = clock.now();
      }
      checkpoint.invalid += batch.invalid;
      if (batch.resume) checkpoint.resume = batch.resume;
    },
  });
  checkpoint.allSent = true;
  await run.save();
}

/** One request's worth of the file: its members, the rows read for it, those unusable, and where the file goes on after it. */
interface MemberBatch {
  members: UserIdentifier[][];
  rows: number;
  invalid: number;
  resume?: NonNullable<SearchadsCheckpoint['resume']>;
}

/** The file read on from the checkpoint, in batches of at most 10,000 members; the last one holds what is left, members or not. */
async function* memberBatches(run: JobRun, job: SearchadsAudienceJob): AsyncGenerator<MemberBatch> {
  const { request, checkpoint } = job;
  const from = checkpoint.resume;
  let layout = from ? googleLayout(contactLayout(from.names)) : undefined;
  let names = from?.names ?? [];
  let dataRows = from?.dataRows ?? 0;
  let batch: MemberBatch = { members: [], rows: 0, invalid: 0 };
  const repeated = new RepeatedCells();
  const bytes = await readJobFile(run, request, from ? { fromByte: from.byte } : { countBytes: true });
  for await (const step of readCsv(bytes, from)) {
    for (const record of step.records) {
      if (!layout) {
        const read = contactLayout(record.cells);
        layout = googleLayout(read);
        names = read.names;
        checkpoint.ignoredColumns = layout.ignored;
        if (read.hasHeader) continue;
      }
      dataRows++;
      batch.rows++;
      job.progress.rowsRead = Math.max(job.progress.rowsRead, dataRows);
      batch.resume = { byte: record.endByte, line: record.line, delimiter: step.delimiter, dataRows, names };
      const member = googleMember(record.cells, layout, sha256Hex, repeated);
      if ('invalid' in member) batch.invalid++;
      else batch.members.push(member.identifiers);
      if (batch.members.length === MEMBERS_PER_REQUEST) {
        yield batch;
        batch = { members: [], rows: 0, invalid: 0 };
      }
    }
  }
  if (!layout) throw new JobEnded(new CsvProblem('The file is empty; upload a CSV with a header row and one row per contact.'));
  if (dataRows === 0) throw new JobEnded(new CsvProblem('The file has a header but no data rows.'));
  yield batch;
}

/**
 * Each request read until it ended, on the engine's poll step: the first read 5 s after the last
 * accepted request, then waits doubling up to 30 minutes, for at most 72 hours (then its outcome is
 * REQUEST_STATUS_UNKNOWN). Every read is counted and saved in the checkpoint; the job waits on the queue.
 */
function followToTheEnd(run: JobRun, job: SearchadsAudienceJob, session: SearchadsSession, requests: readonly SentRequest[]): Promise<void> {
  return followGoogleRequests(
    run,
    job.checkpoint,
    requests,
    async (sent) => {
      const status = await requestStatus(session, sent.requestId);
      if (!FINAL_REQUEST_STATUSES.has(status.status)) return;
      sent.status = status.status;
      sent.failed = Object.values(status.errors).reduce((sum, count) => sum + count, 0);
      if (Object.keys(status.errors).length > 0) sent.reasons = status.errors;
      if (status.matchRateRange) sent.matchRateRange = status.matchRateRange;
      if (status.status === 'FAILED' && sent.failed === 0) sent.failed = status.recordCount || sent.members;
    },
    (left) => {
      for (const sent of left) sent.status = 'REQUEST_STATUS_UNKNOWN';
    },
  );
}

/** How the list ended: the rows received, those unusable here or refused by Google, and the match rate of the largest request. */
function resultOf(job: SearchadsAudienceJob, userListId: string): SearchadsAudienceResult {
  const { request, checkpoint } = job;
  const refused = checkpoint.sent.reduce((sum, sent) => sum + (sent.failed ?? 0), 0);
  const failed = checkpoint.sent.filter((sent) => sent.status === 'FAILED');
  const reasons = [...new Set(checkpoint.sent.flatMap((sent) => Object.keys(sent.reasons ?? {})))];
  if (failed.length > 0)
    throw new JobEnded(
      new PlatformRejected(
        'searchads',
        `Google could not process ${failed.length} of the ${checkpoint.sent.length} requests of this list (${reasons.join(', ') || 'no reason given'}); ${refused} members in all were refused.`,
        { platformCode: 'FAILED' },
      ),
    );
  const largest = [...checkpoint.sent].filter((sent) => sent.matchRateRange).sort((a, b) => b.members - a.members)[0];
  const unknown =
    checkpoint.sent.filter((sent) => sent.status === 'REQUEST_STATUS_UNKNOWN').length + (checkpoint.removeAll?.status === 'REQUEST_STATUS_UNKNOWN' ? 1 : 0);
  const warnings = [
    ...(refused > 0 ? [`Google refused ${refused} members after accepting them (${reasons.join(', ')}).`] : []),
    ...(unknown > 0 ? [`The outcome of ${unknown} requests could not be read within 72 hours.`] : []),
    ...(checkpoint.ignoredColumns?.length ? [`Google contact lists do not use the columns ${checkpoint.ignoredColumns.join(', ')}.`] : []),
  ];
  return {
    audienceId: request.audienceId,
    userListId,
    received: checkpoint.resume?.dataRows ?? job.progress.rowsRead,
    invalid: checkpoint.invalid + refused,
    ...(largest?.matchRateRange ? { matchRateRange: largest.matchRateRange } : {}),
    ...(warnings.length > 0 ? { warnings } : {}),
  };
}
