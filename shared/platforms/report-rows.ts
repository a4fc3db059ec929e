import { InvalidRequest } from '../core/errors.ts';
import type { Breakdown, ReportLevel } from '../schemas/reports.ts';

/**
 * A report's rows as each adapter reads them (docs/reports.md): the counts in the platform's own units
 * made plain (money in major units as decimal strings), the ids, the name and the breakdown's value.
 * The use case derives the ratios from them, the same way on every platform.
 */
export interface RawReportRow {
  date?: string;
  campaignId: string;
  adSetId?: string;
  adId?: string;
  name: string;
  dimension?: { id: string; name: string };
  impressions: string;
  clicks: string;
  spend: string;
  conversions: string;
  conversionValue: string;
  reach?: string;
  leads?: string;
}

export interface ReportRequest {
  level: ReportLevel;
  startDate: string;
  endDate: string;
  campaignIds?: string[];
  breakdown?: Breakdown;
  timeIncrement: 'day' | 'total';
  attributionWindow?: string;
}

/** One page of a report from a platform: its rows, what it cannot do, and where the next page begins (the platform's cursor or ours). */
export interface ReportPage {
  currency: string;
  rows: RawReportRow[];
  notes: string[];
  next?: string;
}

/** Notes every platform's breakdown reports share. */
export const BREAKDOWN_NOTE = 'Breakdown rows need not add up to the totals.';

/** A row's place in the pages we make: date, campaign, ad set, ad, the breakdown's value. */
const placeOf = (row: RawReportRow): string[] => [row.date ?? '', row.campaignId, row.adSetId ?? '', row.adId ?? '', row.dimension?.id ?? ''];
// compared as plain strings: a collation (localeCompare) may call two different places equal
function comparePlaces(a: readonly string[], b: readonly string[]): number {
  for (const [index, value] of a.entries()) {
    const other = b[index] as string;
    if (value !== other) return value < other ? -1 : 1;
  }
  return 0;
}

function placeFromCursor(cursor: string): string[] {
  try {
    const place = JSON.parse(cursor) as unknown;
    if (Array.isArray(place) && place.length === 5 && place.every((value) => typeof value === 'string')) return place;
  } catch {
    // refused below
  }
  throw new InvalidRequest('The pagination value is not one this report gave.', [{ path: 'pagination', message: 'is not a cursor of this report' }]);
}

/**
 * A page of a report a platform gives whole, with no pages of its own (search ads, the professional
 * network's analytics; docs/reports.md): the rows in one fixed order, and the page the `pageRows` rows
 * after the place of the last row of the page before, which the cursor holds. A row the platform adds
 * or drops between two pages (a campaign made or removed meanwhile) moves no other row: none comes twice.
 */
export function pageAfter(rows: readonly RawReportRow[], cursor: string | undefined, pageRows: number): { rows: RawReportRow[]; next?: string } {
  const placed = rows.map((row) => ({ row, place: placeOf(row) })).sort((a, b) => comparePlaces(a.place, b.place));
  const after = cursor === undefined ? undefined : placeFromCursor(cursor);
  const start = after ? placed.findIndex(({ place }) => comparePlaces(place, after) > 0) : 0;
  const page = start < 0 ? [] : placed.slice(start, start + pageRows);
  const last = page.at(-1);
  const more = start >= 0 && start + pageRows < placed.length;
  return { rows: page.map(({ row }) => row), ...(more && last ? { next: JSON.stringify(last.place) } : {}) };
}
