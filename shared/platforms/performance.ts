import Big from 'big.js';
import { PERFORMANCE_METRICS, type PerformanceMetric } from '../schemas/performance.ts';

/**
 * A day of a campaign's performance in one vocabulary on every platform (docs/operations.md,
 * "Performance"): the platform's raw counts go in; the ratios are derived here, the same way for all,
 * with decimal arithmetic (big.js), never floating point. Money is rounded half-even to the currency's
 * decimals, `ctr` (a fraction) to 6; a ratio whose denominator is 0 is absent, never "Infinity" or
 * "NaN". `clientCostAdjustment` scales every cost figure (spend, cpc, cpm, costPerConversion), never
 * the conversion value.
 */
export interface DailyCounts {
  /** YYYY-MM-DD in the ad account's time zone */
  date: string;
  impressions: string;
  clicks: string;
  /** major units, as the platform writes it (it may carry binary noise: "68.5300000000000335346") */
  spend: string;
  conversions: string;
  conversionValue: string;
  reach?: string;
}

export interface DailyRow {
  date: string;
  impressions: string;
  clicks: string;
  spend: string;
  ctr?: string;
  cpc?: string;
  cpm?: string;
  conversions: string;
  conversionValue: string;
  costPerConversion?: string;
  reach?: string;
}

const HALF_EVEN = 2; // Big.roundHalfEven
const CTR_DECIMALS = 6;

/** A count as its decimal string, without an exponent or trailing zeros ("14", "2.5"). */
const plain = (value: Big) => value.toFixed();

/** The counts of a day or of a window, as exact decimals: what every metric is derived from. */
export interface Totals {
  impressions: Big;
  clicks: Big;
  spend: Big;
  conversions: Big;
  conversionValue: Big;
}

/** One metric from the counts, the same way on every platform; undefined for a ratio without a denominator. */
export function metricOf(totals: Totals, metric: PerformanceMetric, moneyDecimals: number): string | undefined {
  const money = (value: Big) => value.round(moneyDecimals, HALF_EVEN).toFixed(moneyDecimals);
  const { impressions, clicks, spend, conversions } = totals;
  switch (metric) {
    case 'impressions':
    case 'clicks':
    case 'conversions':
      return plain(totals[metric]);
    case 'spend':
    case 'conversionValue':
      return money(totals[metric]);
    case 'ctr':
      return impressions.gt(0) ? clicks.div(impressions).round(CTR_DECIMALS, HALF_EVEN).toFixed(CTR_DECIMALS) : undefined;
    case 'cpc':
      return clicks.gt(0) ? money(spend.div(clicks)) : undefined;
    case 'cpm':
      return impressions.gt(0) ? money(spend.times(1000).div(impressions)) : undefined;
    case 'costPerConversion':
      return conversions.gt(0) ? money(spend.div(conversions)) : undefined;
  }
}

export function dailyRow(counts: DailyCounts, moneyDecimals: number, adjustmentPercent = 0): DailyRow {
  const spend = new Big(counts.spend || '0');
  const totals: Totals = {
    impressions: new Big(counts.impressions || '0'),
    clicks: new Big(counts.clicks || '0'),
    spend: adjustmentPercent === 0 ? spend : spend.times(new Big(100).plus(adjustmentPercent).div(100)),
    conversions: new Big(counts.conversions || '0'),
    conversionValue: new Big(counts.conversionValue || '0'),
  };
  // the fields in the order of the vocabulary; a ratio without a denominator is left out
  const row = { date: counts.date } as DailyRow;
  for (const metric of PERFORMANCE_METRICS) {
    const value = metricOf(totals, metric, moneyDecimals);
    if (value !== undefined) row[metric] = value;
  }
  if (counts.reach !== undefined) row.reach = plain(new Big(counts.reach));
  return row;
}

/** Sums decimal strings exactly. */
export const sum = (values: Array<string | number | undefined>): string => plain(values.reduce<Big>((total, value) => total.plus(value ?? 0), new Big(0)));

/** A plain decimal string (digits, an optional fraction) as an integer and its scale; undefined for anything else. */
function scaled(value: string): { n: bigint; s: number } | undefined {
  const dot = value.indexOf('.');
  if (!/^\d+(\.\d+)?$/.test(value)) return undefined;
  return dot < 0 ? { n: BigInt(value), s: 0 } : { n: BigInt(value.slice(0, dot) + value.slice(dot + 1)), s: value.length - dot - 1 };
}

const TEN = 10n;
const pow10 = (exponent: number) => TEN ** BigInt(exponent);

/** a / b rounded half-even to `decimals`, for non-negative scaled values (b not 0). */
function divided(a: { n: bigint; s: number }, b: { n: bigint; s: number }, decimals: number): string {
  const numerator = a.n * pow10(b.s + decimals);
  const denominator = b.n * pow10(a.s);
  let quotient = numerator / denominator;
  const twice = (numerator % denominator) * 2n;
  if (twice > denominator || (twice === denominator && quotient % 2n === 1n)) quotient += 1n;
  const digits = quotient.toString().padStart(decimals + 1, '0');
  return decimals === 0 ? digits : `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
}

const ONE = { n: 1n, s: 0 };

/**
 * The metrics of a row's counts, as `metricOf` gives them, computed on integers (BigInt) when every
 * count is a plain decimal string: a report of a million rows derives its metrics without a decimal
 * library's allocations. Anything else (an exponent, a sign) takes `metricOf`'s way; the unit tests
 * hold the two to the same answers.
 */
export function rowMetrics(
  counts: { impressions: string; clicks: string; spend: string; conversions: string; conversionValue: string },
  moneyDecimals: number,
): Partial<Record<PerformanceMetric, string>> {
  const impressions = scaled(counts.impressions || '0');
  const clicks = scaled(counts.clicks || '0');
  const spend = scaled(counts.spend || '0');
  const conversions = scaled(counts.conversions || '0');
  const conversionValue = scaled(counts.conversionValue || '0');
  if (!impressions || !clicks || !spend || !conversions || !conversionValue) {
    const totals: Totals = {
      impressions: new Big(counts.impressions || '0'),
      clicks: new Big(counts.clicks || '0'),
      spend: new Big(counts.spend || '0'),
      conversions: new Big(counts.conversions || '0'),
      conversionValue: new Big(counts.conversionValue || '0'),
    };
    return Object.fromEntries(
      PERFORMANCE_METRICS.flatMap((metric) => {
        const value = metricOf(totals, metric, moneyDecimals);
        return value === undefined ? [] : [[metric, value]];
      }),
    );
  }
  const plainOf = (value: { n: bigint; s: number }) => (value.s === 0 ? value.n.toString() : divided(value, ONE, value.s).replace(/\.?0+$/, ''));
  const metrics: Partial<Record<PerformanceMetric, string>> = {
    impressions: plainOf(impressions),
    clicks: plainOf(clicks),
    spend: divided(spend, ONE, moneyDecimals),
  };
  if (impressions.n > 0n) metrics.ctr = divided(clicks, impressions, 6);
  if (clicks.n > 0n) metrics.cpc = divided(spend, clicks, moneyDecimals);
  if (impressions.n > 0n) metrics.cpm = divided({ n: spend.n * 1000n, s: spend.s }, impressions, moneyDecimals);
  metrics.conversions = plainOf(conversions);
  metrics.conversionValue = divided(conversionValue, ONE, moneyDecimals);
  if (conversions.n > 0n) metrics.costPerConversion = divided(spend, conversions, moneyDecimals);
  return metrics;
}
