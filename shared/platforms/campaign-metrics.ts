import type { Platform } from '../core/errors.ts';
import type { DailyCounts } from './performance.ts';

/**
 * The many-campaign reader (docs/operations.md, "Performance"; docs/platforms.md, "Reading many
 * campaigns"): the daily counts of any number of one account's campaigns over a date range from one
 * platform query, whatever the number of campaigns. A query the platform answers in pages, or finds too
 * big and is sliced by date, costs more requests; `requests` says how many were made.
 */
export interface DateRange {
  startDate: string;
  endDate: string;
}

export interface AccountFacts {
  currency: string;
  /** IANA name: the days of the account's figures are days in this zone */
  timeZone: string;
}

export interface MetricsRead {
  /** each asked campaign's days with delivery, oldest first (a campaign without any has none) */
  days: Map<string, DailyCounts[]>;
  /** upstream HTTP requests made, pages and slices included */
  requests: number;
}

export interface CampaignMetricsReader<Session> {
  platform: Platform;
  /** the account's currency and time zone (kept an hour per container) */
  account(session: Session): Promise<AccountFacts>;
  read(session: Session, campaignIds: readonly string[], range: DateRange): Promise<MetricsRead>;
  /** which of these campaigns are in the session's account (a rule names only those): one query of the account */
  campaignsIn(session: Session, campaignIds: readonly string[]): Promise<Set<string>>;
}

const DAY_MS = 86_400_000;
const dayNumber = (date: string) => Date.parse(`${date}T00:00:00Z`) / DAY_MS;
const dateOf = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

/** A range split in two halves by date, or undefined for a single day. */
export function halves(range: DateRange): [DateRange, DateRange] | undefined {
  const [start, end] = [dayNumber(range.startDate), dayNumber(range.endDate)];
  if (end <= start) return undefined;
  const middle = Math.floor((start + end) / 2);
  return [
    { startDate: range.startDate, endDate: dateOf(middle) },
    { startDate: dateOf(middle + 1), endDate: range.endDate },
  ];
}

/** Counts keyed by campaign, only the asked ones, each campaign's days oldest first. */
export function byCampaign(rows: Iterable<DailyCounts & { campaignId: string }>, campaignIds: readonly string[]): Map<string, DailyCounts[]> {
  const days = new Map<string, DailyCounts[]>(campaignIds.map((id) => [id, []]));
  for (const { campaignId, ...counts } of rows) days.get(campaignId)?.push(counts);
  for (const list of days.values()) list.sort((a, b) => a.date.localeCompare(b.date));
  return days;
}
