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
