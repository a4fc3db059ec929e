import Big from 'big.js';
import { rowMetrics } from '../../../shared/platforms/performance.ts';
import type { RawReportRow } from '../../../shared/platforms/report-rows.ts';
import type { ReportQuery, ReportRow } from '../../../shared/schemas/reports.ts';
import { outcomeCounts } from '../../../shared/store/outcome-counts.ts';

/**
 * A report row's metrics derived from its counts as in "Performance" (docs/reports.md), and a campaign
 * row's outcomes reported through the conversions relay with their cost: the same for a page and for
 * an export.
 */
export function derived(raw: RawReportRow, decimals: number): ReportRow {
  const { impressions, clicks, spend, conversions, conversionValue, reach, leads, ...ids } = raw;
  return {
    ...ids,
    ...rowMetrics({ impressions, clicks, spend, conversions, conversionValue }, decimals),
    ...(reach !== undefined ? { reach } : {}),
    ...(leads !== undefined ? { leads } : {}),
  } as ReportRow;
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
