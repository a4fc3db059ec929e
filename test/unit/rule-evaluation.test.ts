import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  budgetTarget,
  conditionHolds,
  dayIn,
  guardrailSkip,
  percentChange,
  type PlannedChange,
  type RecentChange,
  totalsOver,
  windowRange,
} from '../../shared/rules/evaluation.ts';
import { createRuleRequest } from '../../functions/create-rule/schema.ts';
import { evaluateRule } from '../../functions/use-cases/rules/rule-evaluation.ts';

/** How a rule judges a campaign, with no stack: windows, metrics over a window, conditions, budgets, guardrails. */
const day = (date: string, impressions: number, clicks: number, spend: string, conversions = 0) => ({
  date,
  impressions: String(impressions),
  clicks: String(clicks),
  spend,
  conversions: String(conversions),
  conversionValue: '0',
});

describe('windows', () => {
  it('are whole days of the account’s time zone: TODAY so far, the N whole days before today', () => {
    expect(windowRange('TODAY', '2026-11-25')).toEqual({ startDate: '2026-11-25', endDate: '2026-11-25' });
    expect(windowRange('YESTERDAY', '2026-11-25')).toEqual({ startDate: '2026-11-24', endDate: '2026-11-24' });
    expect(windowRange('LAST_3_DAYS', '2026-03-02')).toEqual({ startDate: '2026-02-27', endDate: '2026-03-01' });
    expect(windowRange('LAST_30_DAYS', '2026-11-25')).toEqual({ startDate: '2026-10-26', endDate: '2026-11-24' });
    // 2026-11-25T05:30Z is still the 24th in Los Angeles and already the 25th in Tokyo
    const instant = Date.parse('2026-11-25T05:30:00Z');
    expect(dayIn('America/Los_Angeles', instant)).toBe('2026-11-24');
    expect(dayIn('Asia/Tokyo', instant)).toBe('2026-11-25');
    expect(dayIn('UTC', instant)).toBe('2026-11-25');
  });
});

describe('metrics over a window', () => {
  const days = [
    day('2026-11-21', 1000, 10, '12.50', 1),
    day('2026-11-22', 3000, 20, '7.51'),
    day('2026-11-24', 0, 0, '0.00'),
    day('2026-11-25', 500, 5, '3.00'),
  ];
  it('sums the counts of the days inside the window and derives the ratios from the sums', () => {
    expect(totalsOver(days, windowRange('LAST_7_DAYS', '2026-11-25'), 2)).toEqual({
      impressions: '4000',
      clicks: '30',
      spend: '20.01',
      ctr: '0.007500',
      cpc: '0.67',
      cpm: '5.00',
      conversions: '1',
      conversionValue: '0.00',
      costPerConversion: '20.01',
    });
    // today's row is in TODAY only
    expect(totalsOver(days, windowRange('TODAY', '2026-11-25'), 2)).toMatchObject({ impressions: '500', spend: '3.00' });
  });

  it('leaves a ratio without a denominator undefined, and a condition on it does not hold', () => {
    const totals = totalsOver(days, windowRange('YESTERDAY', '2026-11-25'), 2);
    expect(totals).toMatchObject({ impressions: '0', spend: '0.00' });
    expect(totals.ctr).toBeUndefined();
    expect(totals.costPerConversion).toBeUndefined();
    expect(conditionHolds({ metric: 'costPerConversion', operator: '<', value: 10, window: 'YESTERDAY' }, totals.costPerConversion)).toBe(false);
    expect(conditionHolds({ metric: 'costPerConversion', operator: '>', value: 10, window: 'YESTERDAY' }, null)).toBe(false);
  });

  it('compares decimals exactly, each operator', () => {
    const spend = (operator: '>' | '>=' | '<' | '<=', value: number) => conditionHolds({ metric: 'spend', operator, value, window: 'TODAY' }, '50.10');
    expect([spend('>', 50.1), spend('>=', 50.1), spend('<', 50.1), spend('<=', 50.1)]).toEqual([false, true, false, true]);
    expect([spend('>', 50.09), spend('<', 50.11)]).toEqual([true, true]);
    expect(conditionHolds({ metric: 'ctr', operator: '<', value: 0.1 + 0.2, window: 'TODAY' }, '0.3')).toBe(true); // 0.30000000000000004
  });
});

describe('the budget a budget action sets', () => {
  const change = (percent: number, min = '10', max = '100') => ({ type: 'CHANGE_DAILY_BUDGET' as const, percent, minDailyBudget: min, maxDailyBudget: max });
  it('raises or lowers by the percent, rounded half-even to the currency, within the bounds', () => {
    expect(budgetTarget(change(20), 5000n, 2)).toEqual({ units: 6000n });
    expect(budgetTarget(change(-10), 3333n, 2)).toEqual({ units: 3000n }); // 29.997 → 30.00
    expect(budgetTarget(change(50), 9000n, 2)).toEqual({ units: 10000n }); // 135 held at 100
    expect(budgetTarget(change(-50), 1500n, 2)).toEqual({ units: 1000n }); // 7.50 held at 10
    expect(budgetTarget(change(10, '1000', '5000'), 3333n, 0)).toEqual({ units: 3666n }); // JPY: whole yen
  });

  it('sets an amount, and says why it sets none', () => {
    expect(budgetTarget({ type: 'SET_DAILY_BUDGET', amount: '42.50', minDailyBudget: '10', maxDailyBudget: '100' }, 5000n, 2)).toEqual({ units: 4250n });
    expect(budgetTarget({ type: 'SET_DAILY_BUDGET', amount: '42.50', minDailyBudget: '10', maxDailyBudget: '100' }, 4250n, 2)).toEqual({
      skip: 'the budget is already 42.50',
    });
    expect(budgetTarget({ type: 'SET_DAILY_BUDGET', amount: '42.5', minDailyBudget: '10', maxDailyBudget: '100' }, 4000n, 0)).toEqual({
      skip: 'amount 42.5 has more decimals than the account’s currency (0)',
    });
    expect(budgetTarget(change(20), 10000n, 2)).toEqual({ skip: 'the budget is already 100.00' });
    expect(budgetTarget(change(20, '10.001', '10.009'), 1000n, 2)).toEqual({ skip: 'no amount with 2 decimals lies within the bounds' });
    // a budget someone set above the bounds is not "raised" down to them
    expect(budgetTarget(change(20), 20000n, 2)).toEqual({ skip: 'the budget 200.00 is outside the bounds; raising it within them is not possible' });
  });

  it('never leaves the bounds, whatever the sequence of runs (property)', () => {
    const bound = fc.integer({ min: 1, max: 1_000_000 });
    fc.assert(
      fc.property(
        bound,
        bound,
        fc.integer({ min: 1, max: 2_000_000 }),
        fc.array(
          fc.integer({ min: -90, max: 1000 }).filter((percent) => percent !== 0),
          { minLength: 1, maxLength: 30 },
        ),
        fc.constantFrom(0, 2, 3),
        (low, high, start, percents, decimals) => {
          const [min, max] = [Math.min(low, high), Math.max(low, high)];
          const action = (percent: number) => change(percent, String(min), String(max));
          const scale = 10n ** BigInt(decimals);
          let budget = BigInt(start) * scale;
          let inside = budget >= BigInt(min) * scale && budget <= BigInt(max) * scale;
          for (const percent of percents) {
            const target = budgetTarget(action(percent), budget, decimals);
            if ('skip' in target) continue;
            expect(target.units).toBeGreaterThanOrEqual(BigInt(min) * scale);
            expect(target.units).toBeLessThanOrEqual(BigInt(max) * scale);
            budget = target.units;
            inside = true;
          }
          if (inside) {
            expect(budget).toBeGreaterThanOrEqual(BigInt(min) * scale);
            expect(budget).toBeLessThanOrEqual(BigInt(max) * scale);
          }
        },
      ),
    );
  });
});

describe('guardrails', () => {
  const now = Date.parse('2026-11-25T18:00:00Z');
  const hours = (count: number) => now - count * 3_600_000;
  const pause: PlannedChange = { field: 'status', from: 'ACTIVE', to: 'PAUSED' };
  const guard = (recent: RecentChange[], plan = pause, cooldownHours = 24) =>
    guardrailSkip({ ruleId: 'rul_a', cooldownHours, now, timeZone: 'UTC', plan, recent });
  const byRule = (ruleId: string, at: number, change: Partial<RecentChange> = {}): RecentChange => ({
    at,
    field: 'status',
    from: 'PAUSED',
    to: 'ACTIVE',
    source: { type: 'rule', ruleId },
    ...change,
  });

  it('lets an action go when nothing recent stands in its way', () => {
    expect(guard([])).toBeUndefined();
    expect(guard([byRule('rul_a', hours(25))])).toBeUndefined();
  });

  it('holds a rule back within its cooldown after it acted on the campaign', () => {
    expect(guard([byRule('rul_a', hours(2), { from: 'PAUSED', to: 'ACTIVE' })])).toMatch(
      /^cooldown: this rule changed the campaign at 2026-11-25T16:00:00.000Z/,
    );
    expect(guard([byRule('rul_a', hours(2))], pause, 1)).toBeUndefined();
  });

  it('allows at most 3 rule actions on a campaign a day, across rules (a day of the account’s zone)', () => {
    const three = [
      byRule('rul_b', hours(1), { field: 'dailyBudget', from: { amount: '10' }, to: { amount: '12' } }),
      byRule('rul_c', hours(2), { field: 'dailyBudget' }),
      byRule('rul_d', hours(3), { field: 'dailyBudget' }),
    ];
    expect(guard(three)).toBe('daily cap: rules already changed this campaign 3 times today');
    expect(guard(three.slice(1))).toBeUndefined();
    // the same three, yesterday in UTC: the cap is per day
    expect(
      guard(
        three.map((change) => ({ ...change, at: change.at - 18 * 3_600_000 })),
        pause,
        1,
      ),
    ).toBeUndefined();
  });

  it('does not reverse a change someone else made within the cooldown', () => {
    const resumedByApi: RecentChange = { at: hours(3), field: 'status', from: 'PAUSED', to: 'ACTIVE', source: { type: 'api' } };
    expect(guard([resumedByApi])).toMatch(/^reversal: an API call changed status at/);
    expect(guard([resumedByApi], pause, 2)).toBeUndefined(); // outside this rule's cooldown
    const raisedByOtherRule = byRule('rul_b', hours(1), { field: 'dailyBudget', from: { amount: '10.00' }, to: { amount: '20.00' } });
    expect(guard([raisedByOtherRule], { field: 'dailyBudget', from: '20.00', to: '15.00' })).toMatch(/^reversal: rule rul_b changed dailyBudget/);
    expect(guard([raisedByOtherRule], { field: 'dailyBudget', from: '20.00', to: '25.00' })).toBeUndefined(); // the same way is no reversal
  });
});

describe('rule validation', () => {
  it('normalises a rule and fills the defaults', () => {
    const parsed = createRuleRequest.parse({
      userId: 'u1',
      platform: 'professional',
      name: '  Raise winners  ',
      campaignIds: ['urn:li:sponsoredCampaign:600000101'],
      conditions: [{ metric: 'costPerConversion', operator: '<', value: 10, window: 'LAST_7_DAYS' }],
      action: { type: 'CHANGE_DAILY_BUDGET', percent: 20, minDailyBudget: '10', maxDailyBudget: 200 },
      schedule: 'DAILY',
    });
    expect(parsed).toMatchObject({ name: 'Raise winners', campaignIds: ['600000101'], cooldownHours: 24, enabled: true });
    expect(parsed.action).toEqual({ type: 'CHANGE_DAILY_BUDGET', percent: 20, minDailyBudget: '10', maxDailyBudget: '200' });
  });
});

describe('conditions comparing two windows', () => {
  it('hold on the change in percent, exact to 4 decimals, and never from a base of nothing', () => {
    expect(percentChange('120', '100')).toBe('20');
    expect(percentChange('1.52', '1.20')).toBe('26.6667');
    expect(percentChange('80', '100')).toBe('-20');
    expect(percentChange('100', '100')).toBe('0');
    expect(percentChange('5', '0')).toBeUndefined();
    expect(percentChange(null, '3')).toBeUndefined();
    expect(percentChange('3', undefined)).toBeUndefined();
    const risen = { metric: 'cpc' as const, operator: '>' as const, value: 20, window: 'LAST_3_DAYS' as const, compareTo: { window: 'LAST_14_DAYS' as const } };
    expect(conditionHolds(risen, percentChange('1.21', '1.00'))).toBe(true);
    expect(conditionHolds(risen, percentChange('1.20', '1.00'))).toBe(false);
    expect(conditionHolds({ ...risen, operator: '<', value: -20 }, percentChange('0.79', '1.00'))).toBe(true);
  });

  it('a campaign over two windows, each summed once for the whole group', () => {
    const days = [
      day('2024-03-12', 1000, 10, '10.00'),
      day('2024-03-22', 1000, 10, '30.00'),
      day('2024-03-23', 1000, 10, '30.00'),
      day('2024-03-24', 1000, 10, '30.00'),
    ];
    const byCampaign = new Map([['1', days]]);
    const metrics = {
      facts: { currency: 'USD', timeZone: 'UTC' },
      today: '2024-03-25',
      byWindow: new Map([
        ['LAST_3_DAYS' as const, byCampaign],
        ['LAST_14_DAYS' as const, byCampaign],
      ]),
      totals: new Map(),
    };
    const condition = {
      metric: 'cpc' as const,
      operator: '>' as const,
      value: 20,
      window: 'LAST_3_DAYS' as const,
      compareTo: { window: 'LAST_14_DAYS' as const },
    };
    const rule = { campaignIds: ['1'], conditions: [condition] };
    const [evaluation] = evaluateRule(rule, metrics);
    // 3 days at 3.00 a click against 14 days at (100 / 40) = 2.50: 20 % up, not more than 20
    expect(evaluation).toEqual({
      campaignId: '1',
      metrics: { 'cpc.LAST_3_DAYS': '3.00', 'cpc.LAST_14_DAYS': '2.50', 'cpc.LAST_3_DAYS.vs.LAST_14_DAYS': '20' },
      matched: false,
    });
    expect(metrics.totals.size).toBe(2);
    expect(evaluateRule({ ...rule, conditions: [{ ...condition, operator: '>=' as const }] }, metrics)[0]?.matched).toBe(true);
    // a sum compares per day of its window: 90 in 3 days (30 a day) against 100 in 14 (7.142857… a day)
    const spend = { ...condition, metric: 'spend' as const, value: 300 };
    const [summed] = evaluateRule({ ...rule, conditions: [spend] }, metrics);
    expect(summed?.metrics).toEqual({ 'spend.LAST_3_DAYS': '90.00', 'spend.LAST_14_DAYS': '100.00', 'spend.LAST_3_DAYS.vs.LAST_14_DAYS': '320' });
    expect(summed?.matched).toBe(true);
  });
});
