import Big from 'big.js';
import { clock } from '../../core/clock.ts';
import { sum } from '../performance.ts';
import { BREAKDOWN_NOTE, pageAfter, type RawReportRow, type ReportPage, type ReportRequest } from '../report-rows.ts';
import { analyticsElements, type AnalyticsElement } from './analytics.ts';
import { professionalCampaignControl } from './campaign-control.ts';
import { restliRequest, type ProfessionalSession } from './client.ts';

/**
 * A report from `adAnalytics` (docs/reports.md, "Professional"): campaigns with `q=analytics&pivot=CAMPAIGN`,
 * creatives (our ads) with `q=statistics&pivots=List(CAMPAIGN,CREATIVE)` so that each creative comes with
 * its campaign, both in one call. A demographic breakdown is a `MEMBER_*` pivot, asked campaign by
 * campaign (or creative by creative): whether the platform pairs a campaign pivot with a demographic
 * one in one call is not confirmed, so each call names one campaign and the rows are attributed for
 * sure. The values' names come from the platform's standardized data, read once and kept a day; the
 * company sizes from a table. Conversions are those of "Performance" (website conversions and lead-form
 * leads); `leads` is the lead-form leads alone. The platform has no pages: ours cut its answer.
 */
const PIVOT = {
  country: 'MEMBER_COUNTRY_V2',
  region: 'MEMBER_REGION_V2',
  job_function: 'MEMBER_JOB_FUNCTION',
  seniority: 'MEMBER_SENIORITY',
  industry: 'MEMBER_INDUSTRY',
  company_size: 'MEMBER_COMPANY_SIZE',
} as const;
const FIELDS = 'dateRange,pivotValues,impressions,clicks,costInLocalCurrency,externalWebsiteConversions,oneClickLeads';
const PAGE = 5_000;
const NAMES_KEPT_MS = 86_400_000;
export const COMPANY_SIZES: Record<string, string> = {
  '(1,1)': '1',
  '(2,10)': '2–10',
  '(11,50)': '11–50',
  '(51,200)': '51–200',
  '(201,500)': '201–500',
  '(501,1000)': '501–1,000',
  '(1001,5000)': '1,001–5,000',
  '(5001,10000)': '5,001–10,000',
  '(10001,2147483647)': '10,001+',
  '(10001,)': '10,001+',
  SIZE_1: '1',
  SIZE_2_TO_10: '2–10',
  SIZE_11_TO_50: '11–50',
  SIZE_51_TO_200: '51–200',
  SIZE_201_TO_500: '201–500',
  SIZE_501_TO_1000: '501–1,000',
  SIZE_1001_TO_5000: '1,001–5,000',
  SIZE_5001_TO_10000: '5,001–10,000',
  SIZE_10001_OR_MORE: '10,001+',
};

const restliDate = (date: string) => {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  return `(year:${year},month:${month},day:${day})`;
};
const urnList = (urns: string[]) => `List(${urns.map((urn) => encodeURIComponent(urn)).join(',')})`;
const idOf = (urn: string | undefined) => (urn ?? '').split(':').pop() ?? '';

function query(request: ReportRequest, finder: string, facet: string): string {
  const granularity = request.timeIncrement === 'day' ? 'DAILY' : 'ALL';
  return `${finder}&timeGranularity=${granularity}&dateRange=(start:${restliDate(request.startDate)},end:${restliDate(request.endDate)})&${facet}&fields=${FIELDS}`;
}

const namesKept = new Map<string, { name: string; until: number }>();

/** The names of demographic values (URNs), from the standardized data, kept a day; a value the platform does not name keeps its URN. */
async function valueNames(session: ProfessionalSession, breakdown: keyof typeof PIVOT, urns: string[]): Promise<Map<string, string>> {
  const missing = [...new Set(urns)].filter((urn) => (namesKept.get(urn)?.until ?? 0) < clock.now());
  const keep = (urn: string, name: string) => namesKept.set(urn, { name, until: clock.now() + NAMES_KEPT_MS });
  if (missing.length > 0 && breakdown !== 'company_size') {
    type Named = { id?: number; $URN?: string; name?: { localized?: Record<string, string> }; defaultLocalizedName?: { value?: string } };
    if (breakdown === 'job_function' || breakdown === 'seniority') {
      const path = breakdown === 'job_function' ? '/functions' : '/seniorities';
      const { body } = await restliRequest(session, 'GET', `${path}?locale=en_US`);
      const prefix = breakdown === 'job_function' ? 'urn:li:function:' : 'urn:li:seniority:';
      for (const element of (body as { elements?: Named[] } | null)?.elements ?? [])
        keep(element.$URN ?? `${prefix}${element.id}`, element.name?.localized?.en_US ?? String(element.id));
    } else {
      const ids = missing.map(idOf).filter((id) => /^\d+$/.test(id));
      const path =
        breakdown === 'industry'
          ? `/industryTaxonomyVersions/DEFAULT/industries?${ids.map((id) => `ids=${id}`).join('&')}&locale=en_US`
          : `/geo?ids=List(${ids.join(',')})&locale=(language:en,country:US)`;
      const { body } = await restliRequest(session, 'GET', path);
      const prefix = breakdown === 'industry' ? 'urn:li:industry:' : 'urn:li:geo:';
      for (const [id, named] of Object.entries((body as { results?: Record<string, Named> } | null)?.results ?? {}))
        keep(`${prefix}${id}`, named.name?.localized?.en_US ?? named.defaultLocalizedName?.value ?? id);
    }
  }
  return new Map(
    urns.map((urn) => [
      urn,
      breakdown === 'company_size' ? (COMPANY_SIZES[urn.replace('urn:li:staffCountRange:', '')] ?? urn) : (namesKept.get(urn)?.name ?? urn),
    ]),
  );
}

function countsOf(
  element: AnalyticsElement,
): Pick<RawReportRow, 'impressions' | 'clicks' | 'spend' | 'conversions' | 'conversionValue' | 'leads'> & { date?: string } {
  const start = element.dateRange?.start;
  return {
    ...(start ? { date: `${start.year}-${String(start.month).padStart(2, '0')}-${String(start.day).padStart(2, '0')}` } : {}),
    impressions: String(element.impressions ?? 0),
    clicks: String(element.clicks ?? 0),
    spend: new Big(element.costInLocalCurrency ?? '0').toFixed(),
    conversions: sum([element.externalWebsiteConversions, element.oneClickLeads]),
    conversionValue: '0',
    leads: String(element.oneClickLeads ?? 0),
  };
}

const CAMPAIGN_NAMES_KEPT_MS = 10 * 60_000;
const campaignNamesKept = new Map<string, { name: string; until: number }>();

/** The campaigns' names, from one search of the account when any is not kept (a rename shows within 10 minutes). */
async function campaignNames(session: ProfessionalSession & { adAccountId: string }, campaignIds: string[]): Promise<Map<string, string>> {
  const keyOf = (id: string) => `${session.adAccountId}/${id}`;
  if (campaignIds.some((id) => (campaignNamesKept.get(keyOf(id))?.until ?? 0) < clock.now())) {
    const found = await professionalCampaignControl.readMany(session, campaignIds);
    for (const [id, campaign] of found) campaignNamesKept.set(keyOf(id), { name: campaign.name, until: clock.now() + CAMPAIGN_NAMES_KEPT_MS });
  }
  return new Map(
    campaignIds.flatMap((id) => {
      const kept = campaignNamesKept.get(keyOf(id));
      return kept ? [[id, kept.name] as const] : [];
    }),
  );
}

export async function professionalReportPage(
  session: ProfessionalSession & { adAccountId: string },
  request: ReportRequest,
  cursor: string | undefined,
  pageRows = PAGE,
): Promise<Omit<ReportPage, 'currency'>> {
  const account = `accounts=${urnList([`urn:li:sponsoredAccount:${session.adAccountId}`])}`;
  const facet = request.campaignIds ? `campaigns=${urnList(request.campaignIds.map((id) => `urn:li:sponsoredCampaign:${id}`))}` : account;
  const byAd = request.level === 'ad';
  const entities = await analyticsElements(
    session,
    query(
      request.breakdown ? { ...request, timeIncrement: 'total' } : request,
      byAd ? 'q=statistics&pivots=List(CAMPAIGN,CREATIVE)' : 'q=analytics&pivot=CAMPAIGN',
      facet,
    ),
  );
  const ownerOf = (element: AnalyticsElement) => ({
    campaignId: idOf(element.pivotValues?.find((urn) => urn.startsWith('urn:li:sponsoredCampaign:'))),
    adId: byAd ? idOf(element.pivotValues?.find((urn) => urn.startsWith('urn:li:sponsoredCreative:'))) : undefined,
  });
  let rows: RawReportRow[];
  const notes = ['Conversions are website conversions and lead-form leads; leads count the lead-form leads alone. The platform gives no reach here.'];
  if (!request.breakdown) rows = entities.map((element) => ({ ...ownerOf(element), name: '', ...countsOf(element) }) as RawReportRow);
  else {
    const breakdown = request.breakdown as keyof typeof PIVOT;
    // one call per campaign (or creative) that had delivery in the range: the only form that attributes rows for sure
    const owners = [...new Map(entities.map((element) => [JSON.stringify(ownerOf(element)), ownerOf(element)])).values()];
    rows = [];
    for (const owner of owners) {
      const one = owner.adId
        ? `creatives=${urnList([`urn:li:sponsoredCreative:${owner.adId}`])}`
        : `campaigns=${urnList([`urn:li:sponsoredCampaign:${owner.campaignId}`])}`;
      const elements = await analyticsElements(session, query(request, `q=analytics&pivot=${PIVOT[breakdown]}`, one));
      const names = await valueNames(
        session,
        breakdown,
        elements.map((element) => element.pivotValues?.[0] ?? ''),
      );
      for (const element of elements) {
        const urn = element.pivotValues?.[0] ?? '';
        rows.push({
          campaignId: owner.campaignId,
          ...(owner.adId ? { adId: owner.adId } : {}),
          name: '',
          dimension: { id: urn, name: names.get(urn) ?? urn },
          ...countsOf(element),
        });
      }
    }
    notes.push(
      BREAKDOWN_NOTE,
      'The platform’s demographic figures are approximate; values with fewer than 3 events are left out; the last 24 hours may be incomplete, and 2 years are kept.',
      `One request per ${byAd ? 'creative' : 'campaign'} was needed for this breakdown.`,
    );
  }
  if (request.timeIncrement === 'total') rows = rows.map(({ date: _date, ...row }) => row);
  // names: the campaigns' from one search of the account, kept a few minutes (a report's next pages read none); a creative is named by its id
  const names = await campaignNames(session, [...new Set(rows.map((row) => row.campaignId))]);
  for (const row of rows) {
    if (!row.adId) delete row.adId;
    row.name = row.adId ? `Creative ${row.adId}` : (names.get(row.campaignId) ?? `Campaign ${row.campaignId}`);
  }
  return { ...pageAfter(rows, cursor, pageRows), notes };
}
