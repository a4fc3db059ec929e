import { createHash } from 'node:crypto';
import type { Context } from 'aws-lambda';
import Big from 'big.js';
import { InvalidRequest, UnsupportedReport } from '../../../shared/core/errors.ts';
import { isoDecimals } from '../../../shared/core/money.ts';
import { metricOf, type Totals } from '../../../shared/platforms/performance.ts';
import type { RawReportRow } from '../../../shared/platforms/report-rows.ts';
import { PERFORMANCE_METRICS } from '../../../shared/schemas/performance.ts';
import { breakdownsAt, REPORT_SUPPORT, type ReportQuery, type ReportResult, type ReportRow } from '../../../shared/schemas/reports.ts';
import { outcomeCounts } from '../../../shared/store/outcome-counts.ts';
import type { User } from '../../../shared/store/users.ts';
import { REPORT_SOURCES } from './report-sources.ts';

/**
 * `/reports/get_report` (docs/reports.md): the report checked against what the platform offers
 * before any call (a level or breakdown it lacks names what it has), one page read from the platform,
 * each row's ratios derived as in "Performance", and at campaign level the outcomes the conversions
 * relay reported for the campaign's leads, with their cost. The cursor is bound to the report it came
 * from: another report's cursor is refused.
 */
export async function getReport(tenantId: string, user: User, query: ReportQuery, context: Context): Promise<ReportResult> {
  checkSupport(query);
  const { pagination, userId: _user, platform, ...request } = query;
  const fingerprint = createHash('sha256')
    .update(JSON.stringify({ platform, ...request }))
    .digest('base64url')
    .slice(0, 16);
  const cursor = pagination ? readCursor(pagination, fingerprint) : undefined;
  const page = await REPORT_SOURCES[platform](user, context, request, cursor);
  const decimals = isoDecimals(page.currency);
  let rows = page.rows.map((row) => derived(row, decimals));
  const notes = [...page.notes];
  if (request.level === 'campaign') {
    if (request.breakdown) notes.push('Outcomes reported through the conversions relay are not broken down; ask without a breakdown to see them.');
    else rows = await withOutcomes(tenantId, user.userId, platform, request, rows, decimals);
  }
  return {
    currency: page.currency,
    level: request.level,
    ...(request.breakdown ? { breakdown: request.breakdown } : {}),
    rows,
    notes,
    ...(page.next ? { paging: { next: Buffer.from(JSON.stringify({ r: fingerprint, c: page.next })).toString('base64url') } } : {}),
  };
}

function checkSupport(query: ReportQuery): void {
  const support = REPORT_SUPPORT[query.platform];
  if (!support.levels.includes(query.level))
    throw new UnsupportedReport(
      'UNSUPPORTED_LEVEL',
      `The ${query.platform} platform has no ${query.level} level; it reports at ${support.levels.join(', ')}.`,
      support.levels,
    );
  const offered = breakdownsAt(query.platform, query.level);
  if (query.breakdown && !offered.includes(query.breakdown))
    throw new UnsupportedReport(
      'UNSUPPORTED_BREAKDOWN',
      `The ${query.platform} platform cannot break ${query.level} rows down by ${query.breakdown}; at this level it offers ${offered.join(', ') || 'none'}.`,
      offered,
    );
  if (query.attributionWindow && query.platform !== 'social')
    throw new InvalidRequest('attributionWindow is the social platform’s alone: the others set windows per conversion action.', [
      { path: 'attributionWindow', message: 'is offered on the social platform only' },
    ]);
}

function readCursor(pagination: string, fingerprint: string): string {
  try {
    const { r, c } = JSON.parse(Buffer.from(pagination, 'base64url').toString('utf8')) as { r?: unknown; c?: unknown };
    if (r === fingerprint && typeof c === 'string' && c.length > 0) return c;
  } catch {
    // answered below
  }
  throw new InvalidRequest('The pagination value is not one this report gave; send back results.paging.next of the same report as it was.', [
    { path: 'pagination', message: 'is not a cursor of this report' },
  ]);
}

function derived(raw: RawReportRow, decimals: number): ReportRow {
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
async function withOutcomes(
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
