import { Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import { stringify } from 'csv-stringify/sync';
import { csvLines } from '../../../shared/core/csv-lines.ts';
import * as z from 'zod';
import { clock } from '../../../shared/core/clock.ts';
import { config } from '../../../shared/core/config.ts';
import { PlatformRejected } from '../../../shared/core/errors.ts';
import { isoDecimals } from '../../../shared/core/money.ts';
import type { RawReportRow, ReportRequest } from '../../../shared/platforms/report-rows.ts';
import { reportRunDone, reportRunPages, socialReportNotes, startReportRun } from '../../../shared/platforms/social/report-rows.ts';
import { socialSession } from '../../../shared/platforms/social/session.ts';
import { accountCurrency } from '../../../shared/platforms/social/account.ts';
import { exportReportRequest, type ReportFile, type ReportRow } from '../../../shared/schemas/reports.ts';
import type { Job } from '../../../shared/store/jobs.ts';
import type { User } from '../../../shared/store/users.ts';
import { presignedGet, stageStream } from '../../../shared/storage/staging.ts';
import { defineJobKind } from '../jobs/job-kind.ts';
import { type JobRun, Pause } from '../jobs/job-run.ts';
import { pollUntil } from '../jobs/steps.ts';
import { derived, withOutcomes } from './report-metrics.ts';
import { REPORT_SOURCES } from './report-sources.ts';

/**
 * `/reports/export_report` as a job (docs/reports.md, "Exports"): the report of any size, gzipped into
 * the bucket as csv or jsonl, streamed (the rows never held whole), then a link to it for 24 hours and
 * `report.ready`. On the social platform the rows come from an asynchronous report run, started once
 * (its id saved before anything waits on it) and followed on the queue's delays; elsewhere from the
 * same reads as a page, all pages in turn. A run that dies while writing writes the whole file again
 * under the same key: there is only ever one file a job.
 */
export const reportExportRequestSchema = exportReportRequest.safeExtend({ objectKey: z.string() });
type ExportRequest = z.infer<typeof reportExportRequestSchema>;

export const reportExportCheckpointSchema = z.object({
  runId: z.string().optional(),
  runStartedAt: z.number().optional(),
  polls: z.number().default(0),
  /** runs started again because the platform no longer knew the one before (at most once) */
  runRestarts: z.number().default(0),
});
type ExportCheckpoint = z.infer<typeof reportExportCheckpointSchema>;
type ExportJob = Job<ExportRequest, ExportCheckpoint>;

export const LINK_SECONDS = 24 * 3_600;
const MAX_POLL_SECONDS = 120;
/** a run not done after this long is given up: the platform says runs take up to an hour */
const RUN_FOR_MS = 90 * 60_000;
const PAGE_ROWS = 100_000;

export const reportExportJob = defineJobKind({
  type: 'report_export',
  request: reportExportRequestSchema,
  checkpoint: reportExportCheckpointSchema,
  platformOf: (request) => request.platform,
  run: runExport,
  endEvents: { succeeded: 'report.ready', failed: 'report_export.failed' },
  endAudit: (job) => ({
    action: 'report_export.finished',
    target: { type: 'report_export_job', id: job.jobId },
    platform: job.request.platform,
    changes: { rows: { to: job.progress.rowsRead } },
  }),
});

/** The csv's columns: the row's own fields, the breakdown's value read in place (no copy of the row). */
const COLUMNS = [
  'date',
  'campaignId',
  'adSetId',
  'adId',
  'name',
  { key: 'dimension.id', header: 'dimensionId' },
  { key: 'dimension.name', header: 'dimensionName' },
  'impressions',
  'clicks',
  'spend',
  'ctr',
  'cpc',
  'cpm',
  'conversions',
  'conversionValue',
  'costPerConversion',
  'reach',
  'leads',
  'outcomes',
  'costPerOutcome',
];

async function runExport(run: JobRun, job: ExportJob, user: User): Promise<ReportFile> {
  try {
    return await writeExport(run, job, user);
  } catch (error) {
    // the platform no longer knows the run (100: no such object): a new one, once, rather than a failed export
    const { checkpoint } = job;
    const runGone = error instanceof PlatformRejected && error.extra.platformCode === 100 && checkpoint.runId !== undefined;
    if (!runGone || checkpoint.runRestarts >= 1) throw error;
    delete checkpoint.runId;
    delete checkpoint.runStartedAt;
    Object.assign(checkpoint, { polls: 0, runRestarts: checkpoint.runRestarts + 1 });
    await run.save();
    throw new Pause(0);
  }
}

async function writeExport(run: JobRun, job: ExportJob, user: User): Promise<ReportFile> {
  const { request, checkpoint } = job;
  const { objectKey, format, userId: _user, platform, ...query } = request;
  const report: ReportRequest = query;
  let notes: string[] = [];
  let currency = '';
  let pages: AsyncIterable<{ currency: string; rows: ReportRow[] }>;
  if (platform === 'social') {
    const session = socialSession(user, run.context);
    if (!checkpoint.runId) {
      checkpoint.runId = await startReportRun(session, session.connection.adAccountId, report);
      checkpoint.runStartedAt = clock.now();
      await run.save();
    }
    const runId = checkpoint.runId;
    await pollUntil(run, {
      count: checkpoint,
      key: 'polls',
      first: { since: checkpoint.runStartedAt ?? clock.now(), seconds: config().REPORT_RUN_FIRST_WAIT_SECONDS },
      delays: (polls) => Math.min(MAX_POLL_SECONDS, config().REPORT_RUN_FIRST_WAIT_SECONDS * 2 ** polls),
      deadline: (checkpoint.runStartedAt ?? clock.now()) + RUN_FOR_MS,
      read: async () => ((await reportRunDone(session, runId)) ? { done: true } : { waiting: true }),
      tooLong: () => new Error('The social platform’s report run did not finish within 90 minutes.'),
    });
    notes = socialReportNotes(report);
    currency = await accountCurrency(session, session.connection.adAccountId);
    pages = derivedPages(job, reportRunPages(session, runId, report), () => currency);
  } else {
    const first = await REPORT_SOURCES[platform](user, run.context, report, undefined, PAGE_ROWS);
    notes = first.notes;
    currency = first.currency;
    pages = derivedPages(job, sourcePages(run, user, report, platform, first), () => currency);
  }
  job.progress.rowsRead = 0;
  const { contentLength } = await stageStream(
    objectKey,
    Readable.from(
      encoded(format, pages, (rows) => {
        run.checkTime();
        job.progress.rowsRead += rows;
      }),
    ).pipe(createGzip()),
    'application/gzip',
  );
  const expiresAt = new Date(clock.now() + LINK_SECONDS * 1000).toISOString();
  const fileName = objectKey.split('/').pop();
  return { url: await presignedGet(objectKey, LINK_SECONDS, fileName), format, rows: job.progress.rowsRead, bytes: contentLength, expiresAt, notes };
}

/** The pages of a platform without asynchronous runs: the first already read, then on from its cursor. */
async function* sourcePages(
  run: JobRun,
  user: User,
  report: ReportRequest,
  platform: 'searchads' | 'professional',
  first: Awaited<ReturnType<(typeof REPORT_SOURCES)['social']>>,
) {
  let page = first;
  yield page;
  while (page.next) {
    run.checkTime();
    page = await REPORT_SOURCES[platform](user, run.context, report, page.next, PAGE_ROWS);
    yield page;
  }
}

/** The rows with their metrics derived, and at campaign level their outcomes. */
async function* derivedPages(job: ExportJob, pages: AsyncIterable<{ currency: string; rows: RawReportRow[] }>, currencyOf: () => string) {
  const { request } = job;
  for await (const page of pages) {
    const decimals = isoDecimals(page.currency || currencyOf());
    let rows = page.rows.map((row) => derived(row, decimals));
    if (request.level === 'campaign' && !request.breakdown) rows = await withOutcomes(job.tenantId, job.userId, request.platform, request, rows, decimals);
    yield { currency: page.currency, rows };
  }
}

/** A row's cells in the columns' order. */
export const cellsOf = (row: ReportRow): Array<string | undefined> => [
  row.date,
  row.campaignId,
  row.adSetId,
  row.adId,
  row.name,
  row.dimension?.id,
  row.dimension?.name,
  row.impressions,
  row.clicks,
  row.spend,
  row.ctr,
  row.cpc,
  row.cpm,
  row.conversions,
  row.conversionValue,
  row.costPerConversion,
  row.reach,
  row.leads,
  row.outcomes ? JSON.stringify(row.outcomes) : undefined,
  row.costPerOutcome ? JSON.stringify(row.costPerOutcome) : undefined,
];

export const EXPORT_COLUMNS = COLUMNS;

/** The file's text, a page at a time: csv with a header row (a cell a spreadsheet would run as a formula is escaped), or one JSON row a line. */
export async function* encoded(format: 'csv' | 'jsonl', pages: AsyncIterable<{ rows: ReportRow[] }>, onPage: (rows: number) => void): AsyncGenerator<string> {
  if (format === 'csv') yield stringify([], { header: true, columns: COLUMNS });
  for await (const { rows } of pages) {
    onPage(rows.length);
    if (rows.length === 0) continue;
    if (format === 'jsonl') yield `${rows.map((row) => JSON.stringify(row)).join('\n')}\n`;
    else yield csvLines(rows, cellsOf);
  }
}
