import { professionalCampaignControl } from './campaign-control.ts';
import { CampaignRefused, PlatformRejected, ScopeMissing } from '../../core/errors.ts';
import { isoDecimals } from '../../core/money.ts';
import { type DailyCounts, type DailyRow, dailyRow, sum } from '../performance.ts';
import { accountCurrency } from './account.ts';
import { restliRequest, type ProfessionalSession } from './client.ts';

/**
 * Daily analytics on the professional network (docs/platforms.md, "Professional: performance"): one
 * `adAnalytics` call, `q=analytics&pivot=CAMPAIGN&timeGranularity=DAILY`, with the Rest.li encoding
 * written by hand because no library writes it: the `dateRange` structure and `List(…)` stay as they
 * are, only the URNs inside are percent-encoded, months and days without leading zeros. Conversions
 * are `externalWebsiteConversions` + `oneClickLeads`, their value `conversionValueInLocalCurrency`;
 * cost is `costInLocalCurrency` in the account's currency. Days are UTC.
 */
export const REPORTING_SCOPE = 'r_ads_reporting';
export const ANALYTICS_FIELDS = [
  'dateRange',
  'pivotValues',
  'impressions',
  'clicks',
  'costInLocalCurrency',
  'externalWebsiteConversions',
  'oneClickLeads',
  'conversionValueInLocalCurrency',
];

const restliDate = (date: string) => {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return `(year:${year},month:${month},day:${day})`;
};
const urnList = (urns: string[]) => `List(${urns.map((urn) => encodeURIComponent(urn)).join(',')})`;

/** The query of one analytics call, for the listed campaigns or every campaign of an account. */
export function analyticsQuery(scope: { campaignIds: string[] } | { accountId: string }, startDate: string, endDate: string): string {
  const target =
    'campaignIds' in scope
      ? `campaigns=${urnList(scope.campaignIds.map((id) => `urn:li:sponsoredCampaign:${id}`))}`
      : `accounts=${urnList([`urn:li:sponsoredAccount:${scope.accountId}`])}`;
  return `q=analytics&pivot=CAMPAIGN&timeGranularity=DAILY&dateRange=(start:${restliDate(startDate)},end:${restliDate(endDate)})&${target}&fields=${ANALYTICS_FIELDS.join(',')}`;
}

export interface AnalyticsElement {
  pivotValues?: string[];
  dateRange?: { start?: { year: number; month: number; day: number } };
  impressions?: number;
  clicks?: number;
  costInLocalCurrency?: string;
  externalWebsiteConversions?: number;
  oneClickLeads?: number;
  conversionValueInLocalCurrency?: string;
}

export function countsOfElement(element: AnalyticsElement): DailyCounts & { campaignId: string } {
  const start = element.dateRange?.start;
  return {
    campaignId: (element.pivotValues?.[0] ?? '').replace('urn:li:sponsoredCampaign:', ''),
    date: start ? `${start.year}-${String(start.month).padStart(2, '0')}-${String(start.day).padStart(2, '0')}` : '',
    impressions: String(element.impressions ?? 0),
    clicks: String(element.clicks ?? 0),
    spend: element.costInLocalCurrency ?? '0',
    conversions: sum([element.externalWebsiteConversions, element.oneClickLeads]),
    conversionValue: element.conversionValueInLocalCurrency ?? '0',
  };
}

/** A connection made through a link knows what it was granted; one given as tokens is assumed to hold every scope until refused. */
export function checkReportingScope(grantedScopes: string | undefined): void {
  if (grantedScopes !== undefined && !grantedScopes.split(/[ ,]+/).includes(REPORTING_SCOPE)) throw new ScopeMissing('professional', REPORTING_SCOPE);
}

/** One analytics call; the platform's refusal of the reporting permission is SCOPE_MISSING. */
export async function analyticsElements(session: ProfessionalSession, query: string): Promise<AnalyticsElement[]> {
  try {
    const { body } = await restliRequest(session, 'GET', `/adAnalytics?${query}`);
    return (body as { elements?: AnalyticsElement[] } | null)?.elements ?? [];
  } catch (error) {
    if (error instanceof PlatformRejected && error.extra.platformStatus === 403) throw new ScopeMissing('professional', REPORTING_SCOPE);
    throw error;
  }
}

export async function campaignAnalytics(
  session: ProfessionalSession & { adAccountId: string },
  request: { campaignId: string; startDate: string; endDate: string; adjustmentPercent?: number; grantedScopes?: string },
): Promise<{ currency: string; rows: DailyRow[] }> {
  checkReportingScope(request.grantedScopes);
  // the campaign must be the connected account's: its figures are priced in that account's currency
  if (!(await professionalCampaignControl.read(session, request.campaignId)))
    throw new CampaignRefused('CAMPAIGN_NOT_FOUND', `Campaign ${request.campaignId} is not in the user’s connected professional account.`);
  const elements = await analyticsElements(session, analyticsQuery({ campaignIds: [request.campaignId] }, request.startDate, request.endDate));
  const currency = await accountCurrency(session, session.adAccountId);
  return {
    currency,
    rows: elements
      .map(countsOfElement)
      .filter((counts) => counts.campaignId === request.campaignId)
      .map((counts) => dailyRow(counts, isoDecimals(currency), request.adjustmentPercent))
      .sort((a, b) => a.date.localeCompare(b.date)),
  };
}
