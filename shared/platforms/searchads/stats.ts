import { clock, isoDate } from '../../core/clock.ts';
import type { SearchAdsStats } from '../../schemas/searchads.ts';
import { adsRequest, type SearchadsSession } from './client.ts';

/**
 * Operation 2 (docs/platforms.md, "Search ads"): the daily query and the content-network query of one campaign over a
 * date range, joined by day and mapped to the spec's statistics item with the documented
 * formatting: every figure a string, micros as currency units, rates as fractions, at most six
 * decimals, "0" where the platform sent nothing.
 */
const DAILY_FIELDS = [
  'campaign.id',
  'campaign.name',
  'campaign.status',
  'campaign.serving_status',
  'campaign.advertising_channel_type',
  'campaign.primary_status',
  'campaign.primary_status_reasons',
  'segments.date',
  'metrics.impressions',
  'metrics.clicks',
  'metrics.ctr',
  'metrics.cost_micros',
  'metrics.average_cpc',
  'metrics.average_cpm',
  'metrics.interactions',
  'metrics.conversions',
  'metrics.cost_per_conversion',
  'metrics.all_conversions',
  'metrics.all_conversions_value',
  'metrics.top_impression_percentage',
  'metrics.search_impression_share',
  'metrics.search_budget_lost_impression_share',
  'metrics.search_rank_lost_impression_share',
  'metrics.phone_calls',
  'metrics.phone_impressions',
  'metrics.phone_through_rate',
  'metrics.video_trueview_views',
  'metrics.video_trueview_view_rate',
  'metrics.trueview_average_cpv',
];

export function dailyQuery(campaignId: string, startDate: string, endDate: string): string {
  return `SELECT ${DAILY_FIELDS.join(', ')} FROM campaign WHERE campaign.id = ${campaignId} AND segments.date BETWEEN '${startDate}' AND '${endDate}' ORDER BY segments.date`;
}

export function contentNetworkQuery(campaignId: string, startDate: string, endDate: string): string {
  return `SELECT campaign.id, segments.date, metrics.cost_micros, metrics.average_cpc, metrics.cost_per_conversion FROM campaign WHERE campaign.id = ${campaignId} AND segments.date BETWEEN '${startDate}' AND '${endDate}' AND segments.ad_network_type = 'CONTENT'`;
}

/** The default range: the 30 days ending today (UTC), or ending at the given end date. */
export function statsRange(startDate: string | undefined, endDate: string | undefined, today = clock.today()): { startDate: string; endDate: string } {
  const end = endDate ?? today;
  const start = startDate ?? isoDate(Date.parse(`${end}T00:00:00Z`), -29);
  return { startDate: start, endDate: end };
}

/** An integer prints as is; anything else rounded to six decimals without trailing zeros. */
export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return '0';
  if (Number.isInteger(value)) return String(value);
  return String(Number(value.toFixed(6)));
}

/** int64 strings and doubles alike; absent → "0". */
const figure = (value: unknown) =>
  value === undefined || value === null ? '0' : typeof value === 'string' ? formatNumber(Number(value)) : formatNumber(Number(value));

/** Micros → currency units; an int64 string is divided exactly, a double rounded. */
export function fromMicros(value: unknown): string {
  if (value === undefined || value === null) return '0';
  if (typeof value === 'string' && /^-?\d+$/.test(value)) {
    const negative = value.startsWith('-');
    const digits = (negative ? value.slice(1) : value).padStart(7, '0');
    const units = digits.slice(0, -6).replace(/^0+(?=\d)/, '');
    const fraction = digits.slice(-6).replace(/0+$/, '');
    return `${negative ? '-' : ''}${units}${fraction ? `.${fraction}` : ''}`;
  }
  return formatNumber(Number(value) / 1_000_000);
}

interface StreamRow {
  campaign?: Record<string, unknown>;
  metrics?: Record<string, unknown>;
  segments?: { date?: string };
}

const rowsOf = (batches: Array<{ results?: StreamRow[] }> | undefined) => (batches ?? []).flatMap((batch) => batch.results ?? []);

export function toStats(daily: StreamRow[], content: StreamRow[]): SearchAdsStats[] {
  const display = new Map(content.map((row) => [row.segments?.date, row.metrics ?? {}]));
  return daily.map((row) => {
    const campaign = row.campaign ?? {};
    const metrics = row.metrics ?? {};
    const other = display.get(row.segments?.date);
    const cost = fromMicros(metrics.costMicros);
    return {
      campaignid: String(campaign.id ?? ''),
      campaignName: String(campaign.name ?? ''),
      servingStatus: String(campaign.servingStatus ?? 'UNSPECIFIED'),
      advertising_channel_type: String(campaign.advertisingChannelType ?? 'UNSPECIFIED'),
      status: String(campaign.status ?? 'UNSPECIFIED'),
      avgPosition: '0',
      clicks: figure(metrics.clicks),
      conversions: figure(metrics.conversions),
      cost,
      ctr: figure(metrics.ctr),
      impressions: figure(metrics.impressions),
      interactions: figure(metrics.interactions),
      topImpressionPercentage: figure(metrics.topImpressionPercentage),
      videoViews: figure(metrics.videoTrueviewViews),
      videoViewRate: figure(metrics.videoTrueviewViewRate),
      averageCpv: fromMicros(metrics.trueviewAverageCpv),
      cpm: fromMicros(metrics.averageCpm),
      conversionRateRanking: 'UNKNOWN',
      costPerConversion: fromMicros(metrics.costPerConversion),
      dateStart: String(row.segments?.date ?? ''),
      cpc: fromMicros(metrics.averageCpc),
      timeUnit: 'DAY',
      spend: cost,
      phone_calls: figure(metrics.phoneCalls),
      phone_impressions: figure(metrics.phoneImpressions),
      phone_through_rate: figure(metrics.phoneThroughRate),
      searchImpressionShare: figure(metrics.searchImpressionShare),
      searchBudgetLostImpressionShare: figure(metrics.searchBudgetLostImpressionShare),
      searchRankLostImpressionShare: figure(metrics.searchRankLostImpressionShare),
      primary_status: String(campaign.primaryStatus ?? 'UNSPECIFIED'),
      primary_status_reasons: ((campaign.primaryStatusReasons as string[] | undefined) ?? []).map(String),
      all_conversions: figure(metrics.allConversions),
      all_conversions_value: figure(metrics.allConversionsValue),
      display_spend: fromMicros(other?.costMicros),
      display_cpc: fromMicros(other?.averageCpc),
      display_costPerConversion: fromMicros(other?.costPerConversion),
    };
  });
}

export async function campaignStats(session: SearchadsSession, campaignId: string, range: { startDate: string; endDate: string }): Promise<SearchAdsStats[]> {
  const [daily, content] = await Promise.all([
    adsRequest<Array<{ results?: StreamRow[] }>>(
      session,
      'googleAds:searchStream',
      { query: dailyQuery(campaignId, range.startDate, range.endDate) },
      { retrySafe: true },
    ),
    adsRequest<Array<{ results?: StreamRow[] }>>(
      session,
      'googleAds:searchStream',
      { query: contentNetworkQuery(campaignId, range.startDate, range.endDate) },
      { retrySafe: true },
    ),
  ]);
  return toStats(rowsOf(daily), rowsOf(content));
}
