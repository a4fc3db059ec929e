import { CampaignRefused, PlatformRejected } from '../../core/errors.ts';
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

/** Every insights row of a path (a campaign's, or an account's at campaign level), page after page. */
export async function insightRows(
  session: SocialSession,
  path: string,
  params: Record<string, unknown>,
  options: { maxPages?: number; onRequest?: () => void } = {},
): Promise<InsightRow[]> {
  const rows: InsightRow[] = [];
  const maxPages = options.maxPages ?? MAX_PAGES;
  let after: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    options.onRequest?.();
    const { body } = await graphRequest<{ data?: InsightRow[]; paging?: GraphPaging }>(session, 'GET', path, {
      fields: INSIGHT_FIELDS,
      time_increment: 1,
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

export async function campaignInsights(
  session: SocialSession & { connection: { adAccountId: string } },
  request: { campaignId: string; startDate: string; endDate: string; conversionTypes?: readonly string[]; adjustmentPercent?: number },
  currencyOf: () => Promise<string>,
): Promise<{ currency: string; rows: DailyRow[] }> {
  let rows: InsightRow[];
  try {
    rows = await insightRows(session, `${request.campaignId}/insights`, { time_range: JSON.stringify({ since: request.startDate, until: request.endDate }) });
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
