import { clock } from '../../core/clock.ts';
import { type AccountFacts, byCampaign, type CampaignMetricsReader } from '../campaign-metrics.ts';
import { adsRequest, type SearchadsSession } from './client.ts';
import { fromMicros } from './stats.ts';

/**
 * Many search-ads campaigns at once (docs/platforms.md, "Reading many campaigns"): one
 * `googleAds:searchStream` GAQL query over `campaign.id IN (…)`, daily by `segments.date`, as operation 2
 * reads one campaign. Money arrives in micros (divided exactly), conversions as doubles. The
 * customer's currency and time zone come from one `FROM customer` query, kept an hour.
 */
interface MetricsRow {
  campaign?: { id?: string };
  segments?: { date?: string };
  metrics?: { impressions?: string; clicks?: string; costMicros?: string; conversions?: number; conversionsValue?: number };
}

export const metricsQuery = (campaignIds: readonly string[], startDate: string, endDate: string) =>
  'SELECT campaign.id, segments.date, metrics.impressions, metrics.clicks, metrics.cost_micros, metrics.conversions, metrics.conversions_value ' +
  `FROM campaign WHERE campaign.id IN (${campaignIds.join(', ')}) AND segments.date BETWEEN '${startDate}' AND '${endDate}' ORDER BY campaign.id, segments.date`;

const FACTS_TTL_MS = 60 * 60 * 1000;
const known = new Map<string, { facts: AccountFacts; until: number }>();

const decimal = (value: number | undefined) => (value === undefined ? '0' : String(value));

export const searchadsCampaignMetrics: CampaignMetricsReader<SearchadsSession> = {
  platform: 'searchads',

  async account(session) {
    const cached = known.get(session.customerId);
    if (cached && cached.until > clock.now()) return cached.facts;
    const { results = [] } = await adsRequest<{ results?: Array<{ customer?: { currencyCode?: string; timeZone?: string } }> }>(
      session,
      'googleAds:search',
      { query: 'SELECT customer.currency_code, customer.time_zone FROM customer' },
      { retrySafe: true },
    );
    const facts = { currency: String(results[0]?.customer?.currencyCode ?? 'USD'), timeZone: String(results[0]?.customer?.timeZone ?? 'UTC') };
    known.set(session.customerId, { facts, until: clock.now() + FACTS_TTL_MS });
    return facts;
  },

  async campaignsIn(session, campaignIds) {
    const ids = campaignIds.filter((id) => /^\d+$/.test(id));
    if (ids.length === 0) return new Set();
    const { results = [] } = await adsRequest<{ results?: Array<{ campaign?: { id?: string } }> }>(
      session,
      'googleAds:search',
      { query: `SELECT campaign.id FROM campaign WHERE campaign.id IN (${ids.join(', ')})` },
      { retrySafe: true },
    );
    return new Set(results.map((row) => String(row.campaign?.id ?? '')));
  },

  async read(session, campaignIds, range) {
    const ids = campaignIds.filter((id) => /^\d+$/.test(id));
    if (ids.length === 0) return { days: byCampaign([], campaignIds), requests: 0 };
    const batches = await adsRequest<Array<{ results?: MetricsRow[] }>>(
      session,
      'googleAds:searchStream',
      { query: metricsQuery(ids, range.startDate, range.endDate) },
      { retrySafe: true },
    );
    const rows = (batches ?? [])
      .flatMap((batch) => batch.results ?? [])
      .map((row) => ({
        campaignId: String(row.campaign?.id ?? ''),
        date: String(row.segments?.date ?? ''),
        impressions: String(row.metrics?.impressions ?? '0'),
        clicks: String(row.metrics?.clicks ?? '0'),
        spend: fromMicros(row.metrics?.costMicros),
        conversions: decimal(row.metrics?.conversions),
        conversionValue: decimal(row.metrics?.conversionsValue),
      }));
    return { days: byCampaign(rows, campaignIds), requests: 1 };
  },
};
