import { createHash } from 'node:crypto';
import { checkAgainstProtos } from './searchads-proto.ts';
import { type Row, DAYS_OF_METRICS, type SearchadsState, requestId, day, newAccount, invalid } from './searchads-state.ts';
import type { SandboxRequest, SandboxResponse } from './server.ts';
import { conversionActionRows } from './searchads-conversions.ts';
import { reportStream } from './searchads-report.ts';

/** The search-ads sandbox's `googleAds:searchStream`: 90 days of daily metrics, the same for the same campaign and day. */

/** Deterministic pseudo-random in [0, 1) for a campaign and a day. */
/** The primary status a campaign's own status gives when nothing else limits it. */
const PRIMARY_STATUS_OF: Record<string, string> = { ENABLED: 'ELIGIBLE', PAUSED: 'PAUSED', REMOVED: 'REMOVED' };

export const noise = (seed: string) => createHash('md5').update(seed).digest().readUInt32BE(0) / 2 ** 32;

export function dailyMetrics(campaignId: string, date: string, network: 'SEARCH' | 'CONTENT'): Row | undefined {
  const roll = noise(`${campaignId}:${date}:${network}`);
  if (roll < 0.1) return undefined; // a day with no traffic is not returned
  const impressions = Math.floor((network === 'SEARCH' ? 600 : 2000) + roll * 1400);
  const clicks = Math.floor(impressions * (network === 'SEARCH' ? 0.02 + roll * 0.04 : 0.002 + roll * 0.004));
  const costMicros = clicks * (800_000 + Math.floor(roll * 900_000));
  const conversions = Math.floor(clicks * 0.08 * roll * 2);
  const metrics: Row = {
    clicks: String(clicks),
    conversions,
    costMicros: String(costMicros - (costMicros % 10_000)),
    ctr: clicks / impressions,
    averageCpm: (costMicros / impressions) * 1000,
    impressions: String(impressions),
    interactions: String(clicks),
    allConversions: conversions + (roll > 0.5 ? 1 : 0),
    conversionsValue: Math.round(conversions * 121.25 * 100) / 100,
    allConversionsValue: Math.round(conversions * 137.5 * 100) / 100,
    topImpressionPercentage: Math.round((0.4 + roll * 0.4) * 10_000) / 10_000,
    searchImpressionShare: Math.max(0.0999, Math.round(roll * 10_000) / 10_000),
    searchBudgetLostImpressionShare: Math.min(0.9001, Math.round((1 - roll) * 0.3 * 10_000) / 10_000),
    searchRankLostImpressionShare: Math.min(0.9001, Math.round((1 - roll) * 0.5 * 10_000) / 10_000),
    phoneCalls: String(Math.floor(roll * 4)),
    phoneImpressions: String(Math.floor(impressions / 4)),
    phoneThroughRate: Math.floor(roll * 4) / Math.max(1, Math.floor(impressions / 4)),
    videoTrueviewViews: '0',
    videoTrueviewViewRate: 0,
  };
  if (clicks > 0) metrics.averageCpc = costMicros / clicks;
  if (conversions > 0) metrics.costPerConversion = costMicros / conversions;
  return metrics;
}

export function searchStream(request: SandboxRequest, state: SearchadsState, cid: string): SandboxResponse {
  const query = String(request.fields.query ?? '');
  const checked = checkAgainstProtos('services.SearchGoogleAdsStreamRequest', { customerId: cid, ...request.fields });
  if (checked.problems[0]) return invalid('requestError', 'INVALID_INPUT', checked.problems[0].message, checked.problems[0].path);
  const actions = conversionActionRows(query, state.accounts.get(cid) ?? newAccount(cid));
  if (actions) return { status: 200, body: [{ results: actions, fieldMask: '', requestId: 'sandbox' }] };
  const report = reportStream(query, state.accounts.get(cid) ?? newAccount(cid), cid, dailyMetrics);
  if (report && 'refused' in report) return invalid('queryError', report.refused.value, report.refused.message);
  if (report) return { status: 200, body: [{ ...(report.rows.length > 0 ? { results: report.rows } : {}), fieldMask: '', requestId: requestId() }] };
  if (!/^\s*SELECT\s.+\sFROM\s+campaign\b/is.test(query))
    return invalid('queryError', 'UNEXPECTED_END_OF_QUERY', 'This sandbox answers queries FROM campaign and FROM conversion_action.');
  const between = query.match(/segments\.date\s+BETWEEN\s+'([^']*)'\s+AND\s+'([^']*)'/i);
  if (/segments\.date/.test(query.split(/\sFROM\s/i)[0] ?? '') && !between) {
    return invalid('queryError', 'EXPECTED_FILTERS_ON_DATE_RANGE', 'Filters on date range are expected when segments.date is selected.');
  }
  const [from, to] = [between?.[1] ?? '', between?.[2] ?? ''];
  if (between && !(/^\d{4}-\d{2}-\d{2}$/.test(from) && /^\d{4}-\d{2}-\d{2}$/.test(to)))
    return invalid('queryError', 'INVALID_DATE_FORMAT', 'Invalid date format.');
  const oneCampaign = query.match(/campaign\.id\s*=\s*(\d+)/i)?.[1];
  const someCampaigns = query.match(/campaign\.id\s+IN\s*\(([^)]*)\)/i)?.[1];
  if (someCampaigns !== undefined && !/^\s*\d+(\s*,\s*\d+)*\s*$/.test(someCampaigns))
    return invalid('queryError', 'INVALID_VALUE_WITH_IN_OPERATOR', 'Invalid value with IN operator: a list of numbers is expected.');
  const wanted = oneCampaign ? new Set([oneCampaign]) : someCampaigns ? new Set(someCampaigns.split(',').map((id) => id.trim())) : undefined;
  const content = /segments\.ad_network_type\s*=\s*'CONTENT'/i.test(query);
  const account = state.accounts.get(cid) ?? newAccount(cid);
  state.accounts.set(cid, account);
  const results: Row[] = [];
  for (const [name, resource] of account.resources) {
    if (resource.kind !== 'campaigns') continue;
    const id = name.split('/').pop() as string;
    if (wanted && !wanted.has(id)) continue;
    if (content && !resource.data.display) continue;
    for (let offset = -(DAYS_OF_METRICS - 1); offset <= 0; offset++) {
      const date = day(offset);
      if (between && (date < from || date > to)) continue;
      const metrics = dailyMetrics(id, date, content ? 'CONTENT' : 'SEARCH');
      if (!metrics) continue;
      const campaign: Row = { resourceName: name, id };
      if (!content) {
        Object.assign(campaign, {
          status: resource.data.status ?? 'ENABLED',
          servingStatus: resource.data.servingStatus,
          advertisingChannelType: 'SEARCH',
          name: resource.data.name,
          // the platform always names one; a campaign the sandbox made without one has its status's
          primaryStatus: resource.data.primaryStatus ?? PRIMARY_STATUS_OF[String(resource.data.status ?? 'ENABLED')] ?? 'ELIGIBLE',
          ...((resource.data.primaryStatusReasons as string[] | undefined)?.length ? { primaryStatusReasons: resource.data.primaryStatusReasons } : {}),
        });
      }
      results.push({ campaign, metrics, segments: { date, ...(content ? { adNetworkType: 'CONTENT' } : {}) } });
    }
  }
  const id = requestId();
  const batch: Row = { fieldMask: 'campaign.id,segments.date,metrics', requestId: id, queryResourceConsumption: String(40 + results.length) };
  if (results.length > 0) batch.results = results;
  return { status: 200, body: [batch], headers: { 'request-id': id } };
}
