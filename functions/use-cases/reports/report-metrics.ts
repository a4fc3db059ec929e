import Big from 'big.js';
import { metricOf, type Totals } from '../../../shared/platforms/performance.ts';
import type { RawReportRow } from '../../../shared/platforms/report-rows.ts';
import { PERFORMANCE_METRICS } from '../../../shared/schemas/performance.ts';
import type { ReportQuery, ReportRow } from '../../../shared/schemas/reports.ts';
import { outcomeCounts } from '../../../shared/store/outcome-counts.ts';

/**
 * A report row's metrics derived from its counts as in "Performance" (docs/reports.md), and a campaign
 * row's outcomes reported through the conversions relay with their cost: the same for a page and for
 * an export.
 */
export function derived(raw: RawReportRow, decimals: number): ReportRow {
  const totals: Totals = {
    impressions: new Big(raw.impressions || '0'),
    clicks: new Big(raw.clicks || '0'),
    spend: new Big(raw.spend || '0'),
    conversions: new Big(raw.conversions || '0'),
    conversionValue: new Big(raw.conversionValue || '0'),
  };
  const { impressions: _i, clicks: _c, spend: _s, conversions: _v, conversionValue: _cv, reach, leads, ...ids } = raw;
  const row = { ...ids } as ReportRow;
  for (const metric of PERFORMANCE_METRICS) {
    const value = metricOf(totals, metric, decimals);
    if (value !== undefined) row[metric] = value;
  }
  if (reach !== undefined) row.reach = reach;
  if (leads !== undefined) row.leads = leads;
  return row;
}

/** Each campaign row with the outcomes reported for its leads (by the outcome's day), per stage, and spend / outcomes. */
export async function withOutcomes(
  tenantId: string,
  userId: string,
  platform: ReportQuery['platform'],
  request: { startDate: string; endDate: string; timeIncrement: 'day' | 'total' },
  rows: ReportRow[],
  decimals: number,
): Promise<ReportRow[]> {
  const counts = await outcomeCounts(tenantId, userId, platform, request.startDate, request.endDate);
  if (counts.length === 0) return rows;
  return rows.map((row) => {
    const outcomes: Record<string, number> = {};
    for (const count of counts)
      if (count.campaignId === row.campaignId && (request.timeIncrement === 'total' || count.date === row.date))
        outcomes[count.stage] = (outcomes[count.stage] ?? 0) + count.count;
    if (Object.keys(outcomes).length === 0) return row;
    const costPerOutcome = Object.fromEntries(
      Object.entries(outcomes).map(([stage, count]) => [stage, new Big(row.spend).div(count).round(decimals, 2).toFixed(decimals)]),
    );
    return { ...row, outcomes, costPerOutcome };
  });
}
