import Big from 'big.js';

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

export function dailyRow(counts: DailyCounts, moneyDecimals: number, adjustmentPercent = 0): DailyRow {
  const impressions = new Big(counts.impressions || '0');
  const clicks = new Big(counts.clicks || '0');
  const conversions = new Big(counts.conversions || '0');
  const spend = new Big(counts.spend || '0').times(new Big(100).plus(adjustmentPercent).div(100));
  const money = (value: Big) => value.round(moneyDecimals, HALF_EVEN).toFixed(moneyDecimals);
  return {
    date: counts.date,
    impressions: plain(impressions),
    clicks: plain(clicks),
    spend: money(spend),
    ...(impressions.gt(0) ? { ctr: clicks.div(impressions).round(CTR_DECIMALS, HALF_EVEN).toFixed(CTR_DECIMALS) } : {}),
    ...(clicks.gt(0) ? { cpc: money(spend.div(clicks)) } : {}),
    ...(impressions.gt(0) ? { cpm: money(spend.times(1000).div(impressions)) } : {}),
    conversions: plain(conversions),
    conversionValue: money(new Big(counts.conversionValue || '0')),
    ...(conversions.gt(0) ? { costPerConversion: money(spend.div(conversions)) } : {}),
    ...(counts.reach !== undefined ? { reach: plain(new Big(counts.reach)) } : {}),
  };
}

/** Sums decimal strings exactly. */
export const sum = (values: Array<string | number | undefined>): string => plain(values.reduce<Big>((total, value) => total.plus(value ?? 0), new Big(0)));
