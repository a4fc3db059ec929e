import { childWeights, splitCount, splitMoney } from './report-splits.ts';
import { type Account, DAYS_OF_METRICS, day, type Row } from './searchads-state.ts';

/**
 * GAQL report queries on the search-ads sandbox (docs/reports.md): `FROM campaign | ad_group |
 * ad_group_ad` with `segments.device` or `segments.ad_network_type`, the `age_range_view`,
 * `gender_view` and `user_location_view` views (campaign and ad-group fields only, as Google's views
 * segment), and `geo_target_constant` names. Figures come from each campaign's seeded daily metrics:
 * its ad groups (those made through mutate, else two of its own) and their ads share them, and a
 * segment's values share each row's, every part adding up to the whole. Without `segments.date` in the
 * SELECT, a row covers the whole range. Undefined: a query the plain campaign stream answers.
 */
const SEGMENTS: Record<string, { path: (value: string) => Row; values: Array<[string, number]> }> = {
  device: {
    path: (value) => ({ segments: { device: value } }),
    values: [
      ['MOBILE', 5],
      ['DESKTOP', 3],
      ['TABLET', 2],
    ],
  },
  network: {
    path: (value) => ({ segments: { adNetworkType: value } }),
    values: [
      ['SEARCH', 7],
      ['SEARCH_PARTNERS', 3],
    ],
  },
  age: {
    path: (value) => ({ adGroupCriterion: { ageRange: { type: value } } }),
    values: [
      ['AGE_RANGE_18_24', 2],
      ['AGE_RANGE_25_34', 4],
      ['AGE_RANGE_35_44', 3],
      ['AGE_RANGE_45_54', 2],
      ['AGE_RANGE_55_64', 1],
      ['AGE_RANGE_65_UP', 1],
      ['AGE_RANGE_UNDETERMINED', 2],
    ],
  },
  gender: {
    path: (value) => ({ adGroupCriterion: { gender: { type: value } } }),
    values: [
      ['FEMALE', 5],
      ['MALE', 4],
      ['UNDETERMINED', 1],
    ],
  },
  country: {
    path: (value) => ({ userLocationView: { countryCriterionId: value } }),
    values: [
      ['2276', 6],
      ['2250', 4],
    ],
  },
  region: {
    path: (value) => ({ userLocationView: { countryCriterionId: '2276' }, segments: value ? { geoTargetRegion: value } : {} }),
    values: [
      ['geoTargetConstants/20228', 5],
      ['geoTargetConstants/20226', 3],
      ['', 2],
    ],
  },
};

export const GEO_TARGETS: Record<string, Row> = {
  '2276': { id: '2276', name: 'Germany', canonicalName: 'Germany', countryCode: 'DE', targetType: 'Country' },
  '2250': { id: '2250', name: 'France', canonicalName: 'France', countryCode: 'FR', targetType: 'Country' },
  '20228': { id: '20228', name: 'Bavaria', canonicalName: 'Bavaria,Germany', countryCode: 'DE', targetType: 'State' },
  '20226': { id: '20226', name: 'Berlin', canonicalName: 'Berlin,Germany', countryCode: 'DE', targetType: 'State' },
};

const VIEWS = new Set(['age_range_view', 'gender_view', 'user_location_view']);

export type ReportAnswer = { rows: Row[] } | { refused: { value: string; message: string } };

export function reportStream(
  query: string,
  account: Account,
  cid: string,
  dailyMetrics: (campaignId: string, date: string, network: 'SEARCH') => Row | undefined,
): ReportAnswer | undefined {
  const resource = /\bFROM\s+(\w+)/i.exec(query)?.[1] ?? '';
  const select = (/^\s*SELECT\s+(.+?)\s+FROM\s/is.exec(query)?.[1] ?? '').split(',').map((field) => field.trim());
  if (resource === 'geo_target_constant') {
    const names = [...query.matchAll(/geoTargetConstants\/(\d+)/g)].map((match) => match[1] as string);
    return {
      rows: names.filter((id) => GEO_TARGETS[id]).map((id) => ({ geoTargetConstant: { resourceName: `geoTargetConstants/${id}`, ...GEO_TARGETS[id] } })),
    };
  }
  const segment = select.includes('segments.device')
    ? 'device'
    : select.includes('segments.ad_network_type')
      ? 'network'
      : resource === 'age_range_view'
        ? 'age'
        : resource === 'gender_view'
          ? 'gender'
          : resource === 'user_location_view'
            ? select.includes('segments.geo_target_region')
              ? 'region'
              : 'country'
            : undefined;
  const byDay = select.includes('segments.date');
  if (resource === 'campaign' && !segment && byDay) return undefined;
  if (!['campaign', 'ad_group', 'ad_group_ad', ...VIEWS].includes(resource)) return undefined;
  if (VIEWS.has(resource) && select.some((field) => field.startsWith('ad_group_ad.')))
    return { refused: { value: 'PROHIBITED_RESOURCE_TYPE_IN_SELECT_CLAUSE', message: `${resource} cannot select ad_group_ad fields.` } };
  const between = /segments\.date\s+BETWEEN\s+'([^']*)'\s+AND\s+'([^']*)'/i.exec(query);
  const [from, to] = [between?.[1] ?? day(-(DAYS_OF_METRICS - 1)), between?.[2] ?? day(0)];
  const ids = /campaign\.id\s+IN\s*\(([^)]*)\)/i.exec(query)?.[1];
  const wanted = ids ? new Set(ids.split(',').map((id) => id.trim())) : undefined;
  const level = resource === 'ad_group_ad' ? 'ad' : resource === 'campaign' ? 'campaign' : 'ad_group';
  const rows: Row[] = [];
  for (const [name, campaign] of account.resources) {
    if (campaign.kind !== 'campaigns') continue;
    const id = name.split('/').pop() as string;
    if (wanted && !wanted.has(id)) continue;
    const days: Array<{ date: string; metrics: Row }> = [];
    for (let offset = -(DAYS_OF_METRICS - 1); offset <= 0; offset++) {
      const date = day(offset);
      const metrics = date >= from && date <= to ? dailyMetrics(id, date, 'SEARCH') : undefined;
      if (metrics) days.push({ date, metrics: pick(metrics) });
    }
    const periods = byDay ? days : days.length > 0 ? [{ date: '', metrics: sumMetrics(days.map((entry) => entry.metrics)) }] : [];
    const entities = entitiesOf(account, cid, id, String(campaign.data.name ?? id), level);
    for (const period of periods) {
      const shares = splitMetrics(period.metrics, childWeights(entities.length));
      for (const [index, entity] of entities.entries()) {
        const values = segment ? SEGMENTS[segment] : undefined;
        const parts = values
          ? splitMetrics(
              shares[index] as Row,
              values.values.map(([, weight]) => weight),
            )
          : [shares[index] as Row];
        for (const [at, metrics] of parts.entries()) {
          const segmented = values ? values.path(values.values[at]?.[0] as string) : {};
          const segments = { ...(byDay ? { date: period.date } : {}), ...((segmented.segments as Row | undefined) ?? {}) };
          rows.push({ ...entity, ...segmented, ...(Object.keys(segments).length > 0 ? { segments } : {}), metrics });
        }
      }
    }
  }
  return { rows };
}

function entitiesOf(account: Account, cid: string, campaignId: string, campaignName: string, level: 'campaign' | 'ad_group' | 'ad'): Row[] {
  const campaign = { resourceName: `customers/${cid}/campaigns/${campaignId}`, id: campaignId, name: campaignName };
  if (level === 'campaign') return [{ campaign }];
  const made = [...account.resources].filter(([, resource]) => resource.kind === 'adGroups' && resource.data.campaign === campaign.resourceName);
  const groups = made.length
    ? made.map(([name, resource]) => ({ resourceName: name, id: name.split('/').pop() as string, name: String(resource.data.name ?? '') }))
    : [1, 2].map((n) => ({ resourceName: `customers/${cid}/adGroups/${campaignId}${n}`, id: `${campaignId}${n}`, name: `${campaignName} · ad group ${n}` }));
  if (level === 'ad_group') return groups.map((adGroup) => ({ campaign, adGroup }));
  return groups.flatMap((adGroup) =>
    // responsive search ads have no name: Google leaves the key out
    [1, 2].map((n) => ({
      campaign,
      adGroup,
      adGroupAd: { resourceName: `customers/${cid}/adGroupAds/${adGroup.id}~${adGroup.id}${n}`, ad: { id: `${adGroup.id}${n}`, type: 'RESPONSIVE_SEARCH_AD' } },
    })),
  );
}

const pick = (metrics: Row): Row => ({
  impressions: String(metrics.impressions),
  clicks: String(metrics.clicks),
  costMicros: String(metrics.costMicros),
  conversions: Number(metrics.conversions),
  conversionsValue: Number(metrics.conversionsValue),
});

function sumMetrics(list: Row[]): Row {
  const sum = (name: string) => list.reduce((all, metrics) => all + Number(metrics[name]), 0);
  return {
    impressions: String(sum('impressions')),
    clicks: String(sum('clicks')),
    costMicros: String(sum('costMicros')),
    conversions: sum('conversions'),
    conversionsValue: Math.round(sum('conversionsValue') * 100) / 100,
  };
}

function splitMetrics(metrics: Row, weights: readonly number[]): Row[] {
  const counts = (name: string) => splitCount(Number(metrics[name]), weights);
  const [impressions, clicks, conversions] = [counts('impressions'), counts('clicks'), counts('conversions')];
  // split in whole cents, so that rows rounded to the cent still add up to the whole
  const cost = splitCount(Math.round(Number(metrics.costMicros) / 10_000), weights).map((cents) => cents * 10_000);
  const value = splitMoney(String(metrics.conversionsValue), weights, 2);
  return weights.map((_, index) => ({
    impressions: String(impressions[index]),
    clicks: String(clicks[index]),
    costMicros: String(cost[index]),
    conversions: conversions[index],
    conversionsValue: Number(value[index]),
  }));
}
