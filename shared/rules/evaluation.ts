import Big from 'big.js';
import { fromUnits, toUnits } from '../core/money.ts';
import type { DateRange } from '../platforms/campaign-metrics.ts';
import { type DailyCounts, metricOf, type Totals } from '../platforms/performance.ts';
import { RULE_METRICS, type RuleAction, type RuleCondition, type RuleMetric, type RuleWindow } from '../schemas/rules.ts';

/**
 * How a rule judges a campaign (docs/operations.md, "Rules"), pure: the windows as days of the ad
 * account's time zone, each metric over a window from the summed daily counts (ratios derived once
 * from the sums, exactly as a daily row's), the conditions, the budget a budget action sets, and the
 * guardrails that hold an action back.
 */
const DAY_MS = 86_400_000;
const ROUND_DOWN = 0;
const HALF_EVEN = 2;
const ROUND_UP = 3;

/** The days of each window relative to today: TODAY is today so far, LAST_N_DAYS the N whole days before today. */
const WINDOW_DAYS: Record<RuleWindow, [number, number]> = {
  TODAY: [0, 0],
  YESTERDAY: [-1, -1],
  LAST_3_DAYS: [-3, -1],
  LAST_7_DAYS: [-7, -1],
  LAST_14_DAYS: [-14, -1],
  LAST_30_DAYS: [-30, -1],
};

/** The calendar day (YYYY-MM-DD) an instant falls on in an IANA time zone. */
export function dayIn(timeZone: string, epochMs: number): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(epochMs);
}

export const shiftDay = (day: string, days: number) => new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/** How many whole days before today a window reaches back (TODAY: none). */
export const lookbackDays = (window: RuleWindow): number => -WINDOW_DAYS[window][0];

export function windowRange(window: RuleWindow, today: string): DateRange {
  const [from, to] = WINDOW_DAYS[window];
  return { startDate: shiftDay(today, from), endDate: shiftDay(today, to) };
}

/** The counts of the days of a range, summed exactly. */
export function totalsOf(days: readonly DailyCounts[], range: DateRange): Totals {
  const totals: Totals = { impressions: new Big(0), clicks: new Big(0), spend: new Big(0), conversions: new Big(0), conversionValue: new Big(0) };
  for (const day of days) {
    if (day.date < range.startDate || day.date > range.endDate) continue;
    totals.impressions = totals.impressions.plus(day.impressions || 0);
    totals.clicks = totals.clicks.plus(day.clicks || 0);
    totals.spend = totals.spend.plus(day.spend || 0);
    totals.conversions = totals.conversions.plus(day.conversions || 0);
    totals.conversionValue = totals.conversionValue.plus(day.conversionValue || 0);
  }
  return totals;
}

/** Each metric over the days of a range: counts summed, ratios from the sums; undefined without a denominator. */
export function totalsOver(days: readonly DailyCounts[], range: DateRange, moneyDecimals: number): Record<RuleMetric, string | undefined> {
  const totals = totalsOf(days, range);
  return Object.fromEntries(RULE_METRICS.map((metric) => [metric, metricOf(totals, metric, moneyDecimals)])) as Record<RuleMetric, string | undefined>;
}

export const metricKey = (condition: Pick<RuleCondition, 'metric' | 'window'>) => `${condition.metric}.${condition.window}`;

/** The key of a compared condition's change: `<metric>.<window>.vs.<compareTo window>`, in percent. */
export const changeKey = (condition: Pick<RuleCondition, 'metric' | 'window'> & { compareTo: { window: RuleWindow } }) =>
  `${metricKey(condition)}.vs.${condition.compareTo.window}`;

/** The metrics that are sums over a window (the others are ratios of sums): compared between windows per day. */
const SUMMED = new Set<RuleMetric>(['impressions', 'clicks', 'spend', 'conversions', 'conversionValue']);

/** How many days a window holds. */
export const daysIn = (window: RuleWindow): number => WINDOW_DAYS[window][1] - WINDOW_DAYS[window][0] + 1;

/**
 * A metric's value over a window, as two windows compare it: a sum per day of its window (3 days against
 * 14 would otherwise always look like a drop), a ratio as it is.
 */
export function comparable(metric: RuleMetric, value: string | null | undefined, window: RuleWindow): string | undefined {
  if (value === null || value === undefined) return undefined;
  return SUMMED.has(metric) ? new Big(value).div(daysIn(window)).toString() : value;
}

/** The change of `current` against `base` in percent (4 decimals, half even); undefined without both, or from a base of 0. */
export function percentChange(current: string | null | undefined, base: string | null | undefined): string | undefined {
  if (current === null || current === undefined || base === null || base === undefined) return undefined;
  const from = new Big(base);
  if (from.eq(0)) return undefined;
  return new Big(current)
    .minus(from)
    .times(100)
    .div(from)
    .round(4, HALF_EVEN)
    .toFixed(4)
    .replace(/\.?0+$/, '');
}

/** A condition on a metric without a value (a cost per conversion without conversions) does not hold. */
export function conditionHolds(condition: RuleCondition, value: string | null | undefined): boolean {
  if (value === null || value === undefined) return false;
  const [left, right] = [new Big(value), new Big(condition.value)];
  switch (condition.operator) {
    case '>':
      return left.gt(right);
    case '>=':
      return left.gte(right);
    case '<':
      return left.lt(right);
    case '<=':
      return left.lte(right);
  }
}

/**
 * The daily budget (in units of the currency's smallest decimal) a budget action sets from `current`:
 * within the bounds (the lowest bound rounded up, the highest down, to the currency), never the
 * other way than the action asks, or why it sets none.
 */
export function budgetTarget(action: Extract<RuleAction, { minDailyBudget: string }>, current: bigint, decimals: number): { units: bigint } | { skip: string } {
  const scale = new Big(10).pow(decimals);
  const min = BigInt(new Big(action.minDailyBudget).times(scale).round(0, ROUND_UP).toFixed(0));
  const max = BigInt(new Big(action.maxDailyBudget).times(scale).round(0, ROUND_DOWN).toFixed(0));
  if (min > max) return { skip: `no amount with ${decimals} decimals lies within the bounds` };
  let wanted: bigint;
  if (action.type === 'SET_DAILY_BUDGET') {
    const exact = toUnits(action.amount, decimals);
    if (exact === undefined) return { skip: `amount ${action.amount} has more decimals than the account’s currency (${decimals})` };
    wanted = exact;
  } else {
    wanted = BigInt(
      new Big(current.toString())
        .times(100 + action.percent)
        .div(100)
        .round(0, HALF_EVEN)
        .toFixed(0),
    );
  }
  const units = wanted < min ? min : wanted > max ? max : wanted;
  if (action.type === 'CHANGE_DAILY_BUDGET' && (action.percent > 0 ? units < current : units > current))
    return {
      skip: `the budget ${fromUnits(current, decimals)} is outside the bounds; ${action.percent > 0 ? 'raising' : 'lowering'} it within them is not possible`,
    };
  if (units === current) return { skip: `the budget is already ${fromUnits(current, decimals)}` };
  return { units };
}

export interface RecentChange {
  /** epoch ms */
  at: number;
  field: 'status' | 'dailyBudget';
  from: unknown;
  to: unknown;
  source: { type: 'api' | 'rule' | 'undo'; ruleId?: string };
}

export interface PlannedChange {
  field: 'status' | 'dailyBudget';
  /** a status, or a budget's amount in major units */
  from: string;
  to: string;
}

const amountOf = (value: unknown) => new Big(String((value as { amount?: unknown } | null)?.amount ?? value ?? '0'));

/** Whether `plan` moves a field back toward its value before `change`. */
function reverses(plan: PlannedChange, change: RecentChange): boolean {
  if (change.field !== plan.field) return false;
  if (plan.field === 'status') return change.from !== change.to && plan.to === change.from;
  const raised = amountOf(change.to).gt(amountOf(change.from));
  const lowered = amountOf(change.to).lt(amountOf(change.from));
  const planRaises = new Big(plan.to).gt(plan.from);
  return (raised && !planRaises) || (lowered && planRaises);
}

export const MAX_RULE_ACTIONS_PER_DAY = 3;

/** Why the guardrails hold an action back (docs/operations.md, "Rules"), or undefined when it may go. */
export function guardrailSkip(input: {
  ruleId: string;
  cooldownHours: number;
  now: number;
  timeZone: string;
  plan: PlannedChange;
  recent: readonly RecentChange[];
}): string | undefined {
  const { ruleId, now, plan, recent } = input;
  const cooldownMs = input.cooldownHours * 3_600_000;
  const ours = (change: RecentChange) => change.source.type === 'rule' && change.source.ruleId === ruleId;
  const own = recent.find((change) => ours(change) && now - change.at < cooldownMs);
  if (own) return `cooldown: this rule changed the campaign at ${new Date(own.at).toISOString()}; it waits ${input.cooldownHours} h`;
  const today = dayIn(input.timeZone, now);
  const byRulesToday = recent.filter((change) => change.source.type === 'rule' && dayIn(input.timeZone, change.at) === today).length;
  if (byRulesToday >= MAX_RULE_ACTIONS_PER_DAY) return `daily cap: rules already changed this campaign ${byRulesToday} times today`;
  const reversed = recent.find((change) => !ours(change) && now - change.at < cooldownMs && reverses(plan, change));
  if (reversed)
    return `reversal: ${reversed.source.type === 'rule' ? `rule ${reversed.source.ruleId}` : 'an API call'} changed ${plan.field} at ${new Date(reversed.at).toISOString()}, within the cooldown`;
  return undefined;
}
