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

/** One page of a report from a platform: its rows, what it cannot do, and where the next page begins (the platform's cursor or our offset). */
export interface ReportPage {
  currency: string;
  rows: RawReportRow[];
  notes: string[];
  next?: string;
}

/** Notes every platform's breakdown reports share. */
export const BREAKDOWN_NOTE = 'Breakdown rows need not add up to the totals.';
