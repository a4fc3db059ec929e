import { createHash } from 'node:crypto';
import type { Context } from 'aws-lambda';
import { InvalidRequest, UnsupportedReport } from '../../../shared/core/errors.ts';
import { isoDecimals } from '../../../shared/core/money.ts';
import { breakdownsAt, REPORT_SUPPORT, type ReportQuery, type ReportResult } from '../../../shared/schemas/reports.ts';
import type { User } from '../../../shared/store/users.ts';
import { derived, withOutcomes } from './report-metrics.ts';
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

export function checkSupport(query: Pick<ReportQuery, 'platform' | 'level' | 'breakdown' | 'attributionWindow'>): void {
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
