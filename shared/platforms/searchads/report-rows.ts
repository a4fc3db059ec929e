import Big from 'big.js';
import { clock } from '../../core/clock.ts';
import { BREAKDOWN_NOTE, pageAfter, type RawReportRow, type ReportPage, type ReportRequest } from '../report-rows.ts';
import { adsRequest, type SearchadsSession } from './client.ts';

/**
 * A report from GAQL (docs/reports.md, "Search ads"): one `searchStream` query a page, its FROM the
 * level (`campaign`, `ad_group`, `ad_group_ad`) or, for age, gender and location, the view Google keeps
 * them in (`age_range_view`, `gender_view`, `user_location_view`: per ad group, summed to the campaign
 * here). Device and network are segments on any level. Location values are geo target constants: their
 * names (and a country's ISO code) come from a second query, kept a day in the function's memory.
 * Google's stream has no pages: every page of ours runs the query again and takes the rows after the
 * last of the page before (`pageAfter`).
 */
const FROM = { campaign: 'campaign', ad_set: 'ad_group', ad: 'ad_group_ad' } as const;
const VIEW = { age: 'age_range_view', gender: 'gender_view', country: 'user_location_view', region: 'user_location_view' } as const;
const METRICS = 'metrics.impressions, metrics.clicks, metrics.cost_micros, metrics.conversions, metrics.conversions_value';
const NAMES_KEPT_MS = 86_400_000;
const PAGE = 5_000;

const AGE_NAMES: Record<string, string> = {
  AGE_RANGE_18_24: '18-24',
  AGE_RANGE_25_34: '25-34',
  AGE_RANGE_35_44: '35-44',
  AGE_RANGE_45_54: '45-54',
  AGE_RANGE_55_64: '55-64',
  AGE_RANGE_65_UP: '65+',
  AGE_RANGE_UNDETERMINED: 'Undetermined',
};
const DEVICE_NAMES: Record<string, string> = { MOBILE: 'Mobile phones', DESKTOP: 'Computers', TABLET: 'Tablets', CONNECTED_TV: 'TV screens', OTHER: 'Other' };
const NETWORK_NAMES: Record<string, string> = { SEARCH: 'Google search', SEARCH_PARTNERS: 'Search partners', CONTENT: 'Display network', YOUTUBE: 'YouTube' };
const titled = (value: string) =>
  value
    .toLowerCase()
    .replace(/_/g, ' ')
    .replace(/\b\w/g, (letter) => letter.toUpperCase());

interface StreamRow {
  campaign?: { id?: string; name?: string };
  adGroup?: { id?: string; name?: string };
  adGroupAd?: { ad?: { id?: string; name?: string } };
  adGroupCriterion?: { ageRange?: { type?: string }; gender?: { type?: string } };
  userLocationView?: { countryCriterionId?: string };
  segments?: { date?: string; device?: string; adNetworkType?: string; geoTargetRegion?: string };
  metrics?: { impressions?: string; clicks?: string; costMicros?: string; conversions?: number; conversionsValue?: number };
  geoTargetConstant?: { id?: string; name?: string; countryCode?: string };
}

export function reportQuery(request: ReportRequest): string {
  const view = request.breakdown && request.breakdown in VIEW ? VIEW[request.breakdown as keyof typeof VIEW] : undefined;
  const from = view ?? FROM[request.level];
  const fields = [
    'campaign.id',
    'campaign.name',
    ...(request.level !== 'campaign' ? ['ad_group.id', 'ad_group.name'] : view ? ['ad_group.id'] : []),
    ...(request.level === 'ad' ? ['ad_group_ad.ad.id', 'ad_group_ad.ad.name'] : []),
    ...(request.breakdown === 'age' ? ['ad_group_criterion.age_range.type'] : []),
    ...(request.breakdown === 'gender' ? ['ad_group_criterion.gender.type'] : []),
    ...(request.breakdown === 'country' || request.breakdown === 'region' ? ['user_location_view.country_criterion_id'] : []),
    ...(request.breakdown === 'region' ? ['segments.geo_target_region'] : []),
    ...(request.breakdown === 'device' ? ['segments.device'] : []),
    ...(request.breakdown === 'placement' ? ['segments.ad_network_type'] : []),
    ...(request.timeIncrement === 'day' ? ['segments.date'] : []),
  ];
  const where = [
    `segments.date BETWEEN '${request.startDate}' AND '${request.endDate}'`,
    request.campaignIds ? `campaign.id IN (${request.campaignIds.join(', ')})` : "campaign.status != 'REMOVED'",
  ];
  return `SELECT ${fields.join(', ')}, ${METRICS} FROM ${from} WHERE ${where.join(' AND ')}`;
}

const namesKept = new Map<string, { name: string; countryCode?: string; until: number }>();

async function geoNames(session: SearchadsSession, ids: string[]): Promise<Map<string, { name: string; countryCode?: string }>> {
  const missing = [...new Set(ids)].filter((id) => (namesKept.get(id)?.until ?? 0) < clock.now());
  if (missing.length > 0) {
    const query = `SELECT geo_target_constant.resource_name, geo_target_constant.id, geo_target_constant.name, geo_target_constant.country_code FROM geo_target_constant WHERE geo_target_constant.resource_name IN (${missing.map((id) => `'geoTargetConstants/${id}'`).join(', ')})`;
    const batches = await adsRequest<Array<{ results?: StreamRow[] }>>(session, 'googleAds:searchStream', { query }, { retrySafe: true });
    for (const row of (batches ?? []).flatMap((batch) => batch.results ?? [])) {
      const constant = row.geoTargetConstant;
      if (constant?.id)
        namesKept.set(String(constant.id), {
          name: String(constant.name ?? constant.id),
          countryCode: constant.countryCode,
          until: clock.now() + NAMES_KEPT_MS,
        });
    }
  }
  return new Map(ids.map((id) => [id, namesKept.get(id) ?? { name: id }]));
}

function dimensionOf(request: ReportRequest, row: StreamRow, names: Map<string, { name: string; countryCode?: string }>): RawReportRow['dimension'] {
  switch (request.breakdown) {
    case 'age': {
      const id = row.adGroupCriterion?.ageRange?.type ?? 'AGE_RANGE_UNDETERMINED';
      return { id, name: AGE_NAMES[id] ?? titled(id) };
    }
    case 'gender': {
      const id = row.adGroupCriterion?.gender?.type ?? 'UNDETERMINED';
      return { id, name: titled(id) };
    }
    case 'country': {
      const geo = names.get(String(row.userLocationView?.countryCriterionId));
      return { id: geo?.countryCode ?? String(row.userLocationView?.countryCriterionId ?? 'unknown'), name: geo?.name ?? 'Unknown' };
    }
    case 'region': {
      const region = row.segments?.geoTargetRegion?.split('/').pop();
      return region ? { id: region, name: names.get(region)?.name ?? region } : { id: 'unknown', name: 'Unknown' };
    }
    case 'device': {
      const id = row.segments?.device ?? 'UNKNOWN';
      return { id, name: DEVICE_NAMES[id] ?? titled(id) };
    }
    case 'placement': {
      const id = row.segments?.adNetworkType ?? 'UNKNOWN';
      return { id, name: NETWORK_NAMES[id] ?? titled(id) };
    }
    default:
      return undefined;
  }
}

export async function searchadsReportPage(
  session: SearchadsSession,
  request: ReportRequest,
  cursor: string | undefined,
  pageRows = PAGE,
): Promise<Omit<ReportPage, 'currency'>> {
  const batches = await adsRequest<Array<{ results?: StreamRow[] }>>(session, 'googleAds:searchStream', { query: reportQuery(request) }, { retrySafe: true });
  const results = (batches ?? []).flatMap((batch) => batch.results ?? []);
  const geoIds = results.flatMap((row) =>
    [row.userLocationView?.countryCriterionId, row.segments?.geoTargetRegion?.split('/').pop()].filter((id): id is string => Boolean(id)),
  );
  const names = geoIds.length > 0 ? await geoNames(session, geoIds) : new Map();
  // a view's rows are per ad group: at campaign level they are summed per campaign, day and value
  const merged = new Map<string, RawReportRow>();
  for (const row of results) {
    const dimension = dimensionOf(request, row, names);
    const adId = row.adGroupAd?.ad?.id;
    const raw: RawReportRow = {
      ...(request.timeIncrement === 'day' && row.segments?.date ? { date: row.segments.date } : {}),
      campaignId: String(row.campaign?.id),
      ...(request.level !== 'campaign' && row.adGroup?.id ? { adSetId: String(row.adGroup.id) } : {}),
      ...(adId ? { adId: String(adId) } : {}),
      // responsive search ads have no name
      name: adId
        ? (row.adGroupAd?.ad?.name ?? `Ad ${adId}`)
        : request.level === 'campaign'
          ? String(row.campaign?.name ?? '')
          : String(row.adGroup?.name ?? ''),
      ...(dimension ? { dimension } : {}),
      impressions: String(row.metrics?.impressions ?? '0'),
      clicks: String(row.metrics?.clicks ?? '0'),
      spend: new Big(row.metrics?.costMicros ?? '0').div(1_000_000).toFixed(),
      conversions: new Big(row.metrics?.conversions ?? 0).toFixed(),
      conversionValue: new Big(row.metrics?.conversionsValue ?? 0).toFixed(),
    };
    const key = [raw.date, raw.campaignId, raw.adSetId, raw.adId, raw.dimension?.id].join('\u0000');
    const earlier = merged.get(key);
    merged.set(
      key,
      earlier
        ? {
            ...earlier,
            impressions: new Big(earlier.impressions).plus(raw.impressions).toFixed(),
            clicks: new Big(earlier.clicks).plus(raw.clicks).toFixed(),
            spend: new Big(earlier.spend).plus(raw.spend).toFixed(),
            conversions: new Big(earlier.conversions).plus(raw.conversions).toFixed(),
            conversionValue: new Big(earlier.conversionValue).plus(raw.conversionValue).toFixed(),
          }
        : raw,
    );
  }
  const notes = [
    'Conversions are the conversion actions the account counts in “Conversions”, in their own windows; there is no reach on search ads.',
    ...(request.breakdown ? [BREAKDOWN_NOTE] : []),
    ...(request.breakdown === 'age' || request.breakdown === 'gender'
      ? [`From the platform’s ${request.breakdown} report, kept per ad group; age and gender cannot be combined, and undetermined is a bucket of its own.`]
      : []),
    ...(request.breakdown === 'country' || request.breakdown === 'region' ? ['Location is where people were, not where they were targeted.'] : []),
  ];
  return { ...pageAfter([...merged.values()], cursor, pageRows), notes };
}
