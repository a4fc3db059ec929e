import { clock } from '../../core/clock.ts';
import { PlatformRejected } from '../../core/errors.ts';
import { sum } from '../performance.ts';
import { BREAKDOWN_NOTE, type RawReportRow, type ReportPage, type ReportRequest } from '../report-rows.ts';
import { graphRequest, type SocialSession } from './client.ts';
import { DEFAULT_CONVERSION_TYPES } from './insights.ts';
import type { GraphPaging } from './paging.ts';

/**
 * A report from the social platform's insights (docs/reports.md, "Social"): one `GET act_{id}/insights`
 * per page, with `level`, one breakdown (placement is the pair publisher_platform, platform_position),
 * `time_increment` 1 or all_days, the attribution window as a one-element list and the campaigns as a
 * filter. Conversions are the counted action types of "Performance"; with a window, each action's key
 * of that window. `leads` is the `lead` action alone (its subtypes are never added to it).
 */
const LEVEL = { campaign: 'campaign', ad_set: 'adset', ad: 'ad' } as const;
const BREAKDOWN_PARAM = {
  age: 'age',
  gender: 'gender',
  country: 'country',
  region: 'region',
  device: 'device_platform',
  placement: 'publisher_platform,platform_position',
} as const;
export const SOCIAL_REPORT_PAGE = 5_000;
const THIRTEEN_MONTHS_MS = 13 * 30.5 * 86_400_000;

interface ReportInsight {
  account_currency?: string;
  campaign_id?: string;
  campaign_name?: string;
  adset_id?: string;
  adset_name?: string;
  ad_id?: string;
  ad_name?: string;
  date_start?: string;
  impressions?: string;
  clicks?: string;
  spend?: string;
  reach?: string;
  actions?: Array<Record<string, string>>;
  action_values?: Array<Record<string, string>>;
  [breakdown: string]: unknown;
}

const DEVICE_NAMES: Record<string, string> = { mobile_app: 'Mobile app', mobile_web: 'Mobile web', desktop: 'Desktop' };
const titled = (value: string) => value.replace(/_/g, ' ').replace(/\b\w/g, (letter) => letter.toUpperCase());
const countries = new Intl.DisplayNames(['en'], { type: 'region' });

function dimensionOf(breakdown: ReportRequest['breakdown'], row: ReportInsight): RawReportRow['dimension'] {
  switch (breakdown) {
    case undefined:
      return undefined;
    case 'placement': {
      const platform = String(row.publisher_platform ?? 'unknown');
      const position = String(row.platform_position ?? 'unknown');
      return { id: `${platform}|${position}`, name: `${titled(platform)} ${titled(position.replace(new RegExp(`^${platform}_`), ''))}` };
    }
    case 'device': {
      const id = String(row.device_platform ?? 'unknown');
      return { id, name: DEVICE_NAMES[id] ?? titled(id) };
    }
    case 'country': {
      const id = String(row.country ?? 'unknown');
      return { id, name: /^[A-Z]{2}$/.test(id) ? (countries.of(id) ?? id) : titled(id) };
    }
    default: {
      const id = String(row[breakdown] ?? 'unknown');
      return { id, name: breakdown === 'gender' ? titled(id) : id };
    }
  }
}

/** The insights parameters of a report (the same for a page and for an asynchronous run). */
function reportParams(request: ReportRequest): Record<string, unknown> {
  const breakdown = request.breakdown ? BREAKDOWN_PARAM[request.breakdown as keyof typeof BREAKDOWN_PARAM] : undefined;
  const fields = [
    'account_currency,campaign_id,campaign_name,date_start,impressions,clicks,spend,actions,action_values',
    ...(request.level !== 'campaign' ? ['adset_id,adset_name'] : []),
    ...(request.level === 'ad' ? ['ad_id,ad_name'] : []),
    ...(oldForReach(request) ? [] : ['reach']),
  ].join(',');
  return {
    level: LEVEL[request.level],
    fields,
    time_range: JSON.stringify({ since: request.startDate, until: request.endDate }),
    time_increment: request.timeIncrement === 'day' ? 1 : 'all_days',
    ...(breakdown ? { breakdowns: breakdown } : {}),
    ...(request.attributionWindow ? { action_attribution_windows: JSON.stringify([request.attributionWindow]) } : {}),
    ...(request.campaignIds ? { filtering: JSON.stringify([{ field: 'campaign.id', operator: 'IN', value: request.campaignIds }]) } : {}),
  };
}

const oldForReach = (request: ReportRequest) => request.breakdown !== undefined && Date.parse(request.startDate) < clock.now() - THIRTEEN_MONTHS_MS;

/** Insights rows as ours. */
function rowsOf(request: ReportRequest, data: readonly ReportInsight[]): RawReportRow[] {
  const window = request.attributionWindow;
  const count = (list: ReportInsight['actions'], types: readonly string[]) =>
    sum((list ?? []).filter((action) => types.includes(action.action_type ?? '')).map((action) => (window ? (action[window] ?? '0') : action.value)));
  return data.map((row): RawReportRow => {
    const leads = count(row.actions, ['lead']);
    const dimension = dimensionOf(request.breakdown, row);
    return {
      ...(request.timeIncrement === 'day' && row.date_start ? { date: row.date_start } : {}),
      campaignId: String(row.campaign_id),
      ...(row.adset_id ? { adSetId: String(row.adset_id) } : {}),
      ...(row.ad_id ? { adId: String(row.ad_id) } : {}),
      name: String(row.ad_name ?? row.adset_name ?? row.campaign_name ?? ''),
      ...(dimension ? { dimension } : {}),
      impressions: row.impressions ?? '0',
      clicks: row.clicks ?? '0',
      spend: row.spend ?? '0',
      conversions: count(row.actions, DEFAULT_CONVERSION_TYPES),
      conversionValue: count(row.action_values, DEFAULT_CONVERSION_TYPES),
      ...(row.reach !== undefined ? { reach: row.reach } : {}),
      ...(leads !== '0' || (row.actions ?? []).some((action) => action.action_type === 'lead') ? { leads } : {}),
    };
  });
}

export function socialReportNotes(request: ReportRequest): string[] {
  const window = request.attributionWindow;
  return [
    `Conversions count the actions ${DEFAULT_CONVERSION_TYPES.join(', ')}${window ? ` in the ${window} window` : ' in the account’s attribution setting'}; leads count the lead action alone.`,
    ...(request.breakdown ? [BREAKDOWN_NOTE, 'The platform estimates breakdown values.'] : []),
    ...(request.breakdown === 'region' ? ['Website and app conversions are not available by region.'] : []),
    ...(oldForReach(request) ? ['Reach is not available with breakdowns for dates older than 13 months.'] : []),
  ];
}

export async function socialReportPage(session: SocialSession, adAccountId: string, request: ReportRequest, after?: string): Promise<ReportPage> {
  const { body } = await graphRequest<{ data?: ReportInsight[]; paging?: GraphPaging }>(session, 'GET', `act_${adAccountId}/insights`, {
    ...reportParams(request),
    limit: SOCIAL_REPORT_PAGE,
    ...(after ? { after } : {}),
  });
  const next = body.paging?.next ? body.paging.cursors?.after : undefined;
  return {
    currency: (body.data ?? [])[0]?.account_currency ?? '',
    rows: rowsOf(request, body.data ?? []),
    notes: socialReportNotes(request),
    ...(next ? { next } : {}),
  };
}

/** An asynchronous report run of the same report (an export): its id. Starting a second run of it does no harm. */
export async function startReportRun(session: SocialSession, adAccountId: string, request: ReportRequest): Promise<string> {
  const { body } = await graphRequest<{ report_run_id?: string }>(session, 'POST', `act_${adAccountId}/insights`, reportParams(request), { retrySafe: true });
  if (!body.report_run_id) throw new PlatformRejected('social', 'The social platform started no report run.');
  return body.report_run_id;
}

/** Whether the run is done (Job Completed at 100 %); a failed or skipped run is the platform's refusal. */
export async function reportRunDone(session: SocialSession, runId: string): Promise<boolean> {
  const { body } = await graphRequest<{ async_status?: string; async_percent_completion?: number; error_code?: number; error_subcode?: number }>(
    session,
    'GET',
    runId,
    {
      fields: 'async_status,async_percent_completion,error_code,error_subcode',
    },
  );
  if (body.async_status === 'Job Failed' || body.async_status === 'Job Skipped')
    throw new PlatformRejected('social', 'The social platform could not make the report; try again later.', {
      ...(body.error_code !== undefined ? { platformCode: body.error_code } : {}),
      ...(body.error_subcode !== undefined ? { platformSubcode: body.error_subcode } : {}),
    });
  return body.async_status === 'Job Completed' && Number(body.async_percent_completion) === 100;
}

/** A finished run's rows, page after page (cursor paging), and the account's currency they are in. */
export async function* reportRunPages(
  session: SocialSession,
  runId: string,
  request: ReportRequest,
): AsyncGenerator<{ currency: string; rows: RawReportRow[] }> {
  let after: string | undefined;
  do {
    const { body } = await graphRequest<{ data?: ReportInsight[]; paging?: GraphPaging }>(session, 'GET', `${runId}/insights`, {
      limit: 500,
      ...(after ? { after } : {}),
    });
    yield { currency: (body.data ?? [])[0]?.account_currency ?? '', rows: rowsOf(request, body.data ?? []) };
    after = body.paging?.next ? body.paging.cursors?.after : undefined;
  } while (after);
}
