import { clock } from '../../core/clock.ts';
import { CampaignRefused, PlatformRejected, PlatformTimeout } from '../../core/errors.ts';
import { isoDecimals } from '../../core/money.ts';
import { type DailyCounts, type DailyRow, dailyRow, sum } from '../performance.ts';
import { graphRequest, type SocialSession } from './client.ts';
import type { GraphPaging } from './paging.ts';

/**
 * Daily insights of one campaign on the social platform (docs/platforms.md, "Social: performance"):
 * `GET /{campaign}/insights` with `time_range`, `time_increment=1` and the fields our rows need, paged
 * by cursor. Conversions are the sum of `actions` of the counted types, their value the sum of the
 * same types' `action_values`. The platform's own ctr (a percent), cpc and cpm are not used: ours are
 * derived from the counts, as on every platform.
 */
export const INSIGHT_FIELDS = 'account_id,account_currency,campaign_id,date_start,impressions,clicks,spend,reach,actions,action_values';
export const DEFAULT_CONVERSION_TYPES = ['lead', 'purchase', 'complete_registration'];
const PAGE_SIZE = 500;
const MAX_PAGES = 4;

export interface InsightRow {
  account_id?: string;
  account_currency?: string;
  campaign_id?: string;
  date_start?: string;
  impressions?: string;
  clicks?: string;
  spend?: string;
  reach?: string;
  actions?: Array<{ action_type?: string; value?: string }>;
  action_values?: Array<{ action_type?: string; value?: string }>;
}

/** One insights row as our counts: the counted action types summed. */
export function countsOfInsight(row: InsightRow, conversionTypes: readonly string[]): DailyCounts {
  const counted = (list: InsightRow['actions']) =>
    sum((list ?? []).filter((action) => conversionTypes.includes(action.action_type ?? '')).map((action) => action.value));
  return {
    date: row.date_start ?? '',
    impressions: row.impressions ?? '0',
    clicks: row.clicks ?? '0',
    spend: row.spend ?? '0',
    conversions: counted(row.actions),
    conversionValue: counted(row.action_values),
    ...(row.reach !== undefined ? { reach: row.reach } : {}),
  };
}

type RowsOptions = { maxPages?: number; onRequest?: () => void };

/** Every row of an insights edge, page after page (cursor paging; `paging.next` is never replayed). */
async function pagedRows(session: SocialSession, path: string, params: Record<string, unknown>, options: RowsOptions): Promise<InsightRow[]> {
  const rows: InsightRow[] = [];
  const maxPages = options.maxPages ?? MAX_PAGES;
  let after: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    options.onRequest?.();
    const { body } = await graphRequest<{ data?: InsightRow[]; paging?: GraphPaging }>(session, 'GET', path, {
      limit: PAGE_SIZE,
      ...params,
      ...(after ? { after } : {}),
    });
    rows.push(...(body.data ?? []));
    after = body.paging?.next ? body.paging.cursors?.after : undefined;
    if (!after) return rows;
  }
  throw new PlatformRejected('social', `The range holds more than ${maxPages * PAGE_SIZE} daily rows; ask for a shorter one.`, { tooMuchData: true });
}

/** Every insights row of a path (a campaign's, or an account's at campaign level), page after page. */
export function insightRows(session: SocialSession, path: string, params: Record<string, unknown>, options: RowsOptions = {}): Promise<InsightRow[]> {
  return pagedRows(session, path, { fields: INSIGHT_FIELDS, time_increment: 1, ...params }, options);
}

interface ReportRunStatus {
  async_status?: string;
  async_percent_completion?: number;
  error_code?: number;
  error_subcode?: number;
  error_user_msg?: string;
}

/** polls of a report run: waits that double up to 8 s, on the injectable clock */
const POLL_BASE_MS = 1_000;
const POLL_MAX_MS = 8_000;
/** a poll is not started when less than this is left of the call's time */
const POLL_MARGIN_MS = 2_000;

/**
 * The same rows from an asynchronous report run (docs/platforms.md, "Social: performance"): `POST` of
 * the insights edge with the same parameters, polls of the run until it is `Job Completed` at 100 %,
 * then its `/insights`, cursor-paged. A failed or skipped run is the platform's refusal; a run not done
 * before the call's time runs out is PLATFORM_TIMEOUT (nothing is waited for past it).
 */
export async function reportRunRows(session: SocialSession, path: string, params: Record<string, unknown>, options: RowsOptions = {}): Promise<InsightRow[]> {
  options.onRequest?.();
  const { body } = await graphRequest<{ report_run_id?: string }>(
    session,
    'POST',
    path,
    { fields: INSIGHT_FIELDS, time_increment: 1, ...params },
    { retrySafe: true }, // a second run of the same report is harmless
  );
  const runId = body.report_run_id;
  if (!runId) throw new PlatformRejected('social', 'The social platform started no report run.');
  for (let poll = 0; ; poll++) {
    options.onRequest?.();
    const status = (
      await graphRequest<ReportRunStatus>(session, 'GET', runId, { fields: 'async_status,async_percent_completion,error_code,error_subcode,error_user_msg' })
    ).body;
    if (status.async_status === 'Job Completed' && Number(status.async_percent_completion) === 100) break;
    if (status.async_status === 'Job Failed' || status.async_status === 'Job Skipped')
      throw new PlatformRejected('social', status.error_user_msg ?? 'The social platform could not make the report; try again later.', {
        ...(status.error_code !== undefined ? { platformCode: status.error_code } : {}),
        ...(status.error_subcode !== undefined ? { platformSubcode: status.error_subcode } : {}),
      });
    const wait = Math.min(POLL_MAX_MS, POLL_BASE_MS * 2 ** poll);
    if (clock.now() + wait > session.deadline - POLL_MARGIN_MS) throw new PlatformTimeout('social');
    await clock.sleep(wait);
  }
  return pagedRows(session, `${runId}/insights`, {}, { ...options, maxPages: Number.POSITIVE_INFINITY });
}

const tooMuchData = (error: unknown) => error instanceof PlatformRejected && error.extra.tooMuchData === true;

/** The rows from the synchronous edge, or from a report run when the platform finds them too many. */
export async function insightRowsOrReport(
  session: SocialSession,
  path: string,
  params: Record<string, unknown>,
  options: RowsOptions = {},
): Promise<InsightRow[]> {
  try {
    return await insightRows(session, path, params, options);
  } catch (error) {
    if (!tooMuchData(error)) throw error;
    return reportRunRows(session, path, params, options);
  }
}

export async function campaignInsights(
  session: SocialSession & { connection: { adAccountId: string } },
  request: { campaignId: string; startDate: string; endDate: string; conversionTypes?: readonly string[]; adjustmentPercent?: number },
  currencyOf: () => Promise<string>,
): Promise<{ currency: string; rows: DailyRow[] }> {
  let rows: InsightRow[];
  try {
    rows = await insightRowsOrReport(session, `${request.campaignId}/insights`, {
      time_range: JSON.stringify({ since: request.startDate, until: request.endDate }),
    });
  } catch (error) {
    if (error instanceof PlatformRejected && error.extra.platformCode === 100 && error.extra.platformSubcode === 33)
      throw new CampaignRefused('CAMPAIGN_NOT_FOUND', `Campaign ${request.campaignId} is not in the user’s connected social account.`);
    throw error;
  }
  if (rows.some((row) => row.account_id !== undefined && row.account_id !== session.connection.adAccountId))
    throw new CampaignRefused('CAMPAIGN_NOT_FOUND', `Campaign ${request.campaignId} is not in the user’s connected social account.`);
  // each row names the account's currency; a range without delivery has no row to name it
  const currency = rows[0]?.account_currency ?? (await currencyOf());
  const types = request.conversionTypes ?? DEFAULT_CONVERSION_TYPES;
  return {
    currency,
    rows: rows
      .map((row) => dailyRow(countsOfInsight(row, types), isoDecimals(currency), request.adjustmentPercent))
      .sort((a, b) => a.date.localeCompare(b.date)),
  };
}
