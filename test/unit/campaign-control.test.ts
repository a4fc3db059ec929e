import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decimalsOfBillableUnit, fromUnits, isoDecimals, MICROS_DECIMALS, socialDecimals, toUnits } from '../../shared/core/money.ts';
import { dailyBudgetOf, patchOf } from '../../shared/platforms/professional/campaign-control.ts';
import { budgetBody, statusOperation } from '../../shared/platforms/searchads/campaign-control.ts';
import { budgetParams, minimumFromMessage, statusWrite } from '../../shared/platforms/social/campaign-control.ts';
import { editCampaignRequest } from '../../functions/social-edit-campaign/schema.ts';

/** Money converted exactly, and the bodies each platform's control writes are built from (no stack). */
describe('money', () => {
  it('converts major units to a currency’s units exactly, refusing what the currency cannot hold', () => {
    expect(toUnits('75.5', 2)).toBe(7550n);
    expect(toUnits('75', 2)).toBe(7500n);
    expect(toUnits('75.500', 2)).toBe(7550n);
    expect(toUnits('75.505', 2)).toBeUndefined();
    expect(toUnits('7500', 0)).toBe(7500n);
    expect(toUnits('75.5', 0)).toBeUndefined();
    expect(toUnits('75.125', 3)).toBe(75125n);
    expect(toUnits('0.1', 2)).toBe(10n); // 0.1 is not a float here: 10 hundredths
    expect(toUnits('-1', 2)).toBeUndefined();
    expect(toUnits('1e3', 2)).toBeUndefined();
    expect(fromUnits(7550n, 2)).toBe('75.50');
    expect(fromUnits(5n, 2)).toBe('0.05');
    expect(fromUnits(7500n, 0)).toBe('7500');
    expect(fromUnits(75125n, 3)).toBe('75.125');
  });

  it('knows each platform’s decimals: the social offset table, billable units, ISO 4217', () => {
    expect([socialDecimals('USD'), socialDecimals('JPY'), socialDecimals('HUF'), socialDecimals('KWD')]).toEqual([2, 0, 0, 2]);
    expect([decimalsOfBillableUnit(10_000n), decimalsOfBillableUnit(1_000_000n), decimalsOfBillableUnit(1_000n)]).toEqual([2, 0, 3]);
    expect([isoDecimals('USD'), isoDecimals('JPY'), isoDecimals('KWD'), isoDecimals('HUF')]).toEqual([2, 0, 3, 2]);
  });

  it('major → platform → major is the identity for every valid amount, on every platform’s unit', () => {
    const amount = fc
      .tuple(fc.bigInt({ min: 0n, max: 999_999_999_999n }), fc.constantFrom(0, 1, 2, 3), fc.nat({ max: 999 }))
      .map(([whole, decimals, fraction]) => ({
        decimals,
        text: decimals === 0 ? whole.toString() : `${whole}.${String(fraction % 10 ** decimals).padStart(decimals, '0')}`,
      }));
    fc.assert(
      fc.property(amount, ({ decimals, text }) => {
        const units = toUnits(text, decimals) as bigint;
        // Meta's minor units and LinkedIn's decimal string are the units themselves; Google's micros scale them
        const micros = units * 10n ** BigInt(MICROS_DECIMALS - decimals);
        const back = micros / 10n ** BigInt(MICROS_DECIMALS - decimals);
        expect(fromUnits(back, decimals)).toBe(fromUnits(units, decimals));
        expect(toUnits(fromUnits(units, decimals), decimals)).toBe(units);
        expect(Number(fromUnits(units, decimals))).toBeCloseTo(Number(text), 6);
      }),
      { numRuns: 2000 },
    );
  });

  it('takes an amount as a number or a decimal string, and refuses zero, negatives and exponents', () => {
    const parse = (amount: unknown) => editCampaignRequest.safeParse({ userId: 'u', campaignId: '1', editLevel: 'BUDGET', amount });
    expect(parse(75.5).data?.amount).toBe('75.5');
    expect(parse(' 75.50 ').data?.amount).toBe('75.50');
    for (const bad of [0, '0.00', -5, '1e3', 'abc', '', 1e21, '75.1234567']) expect(parse(bad).success).toBe(false);
  });
});

describe('the bodies of control writes', () => {
  it('social: POST status (with validate_only for a dry run), DELETE for our DELETE, daily_budget in minor units', () => {
    expect(statusWrite('PAUSED', false)).toEqual({ method: 'POST', params: { status: 'PAUSED' } });
    expect(statusWrite('ACTIVE', true)).toEqual({ method: 'POST', params: { status: 'ACTIVE', execution_options: ['validate_only'] } });
    expect(statusWrite('DELETE', false)).toEqual({ method: 'DELETE', params: {} });
    expect(statusWrite('DELETE', true)).toEqual({ method: 'POST', params: { status: 'DELETED', execution_options: ['validate_only'] } });
    expect(budgetParams(toUnits('75', socialDecimals('USD')) as bigint, false)).toEqual({ daily_budget: '7500' });
    expect(budgetParams(toUnits('7500', socialDecimals('JPY')) as bigint, true)).toEqual({ daily_budget: '7500', execution_options: ['validate_only'] });
    expect(minimumFromMessage('The budget for this campaign must be at least $1.00 USD per day.', 'USD')).toEqual({ amount: '1.00', currency: 'USD' });
    expect(minimumFromMessage('Budget too low.', 'USD')).toBeUndefined();
  });

  it('search ads: status update with its mask, remove, and amountMicros with its mask', () => {
    const campaign = 'customers/1234567890/campaigns/21234567890';
    expect(statusOperation(campaign, 'PAUSED')).toEqual({ updateMask: 'status', update: { resourceName: campaign, status: 'PAUSED' } });
    expect(statusOperation(campaign, 'ACTIVE')).toEqual({ updateMask: 'status', update: { resourceName: campaign, status: 'ENABLED' } });
    expect(statusOperation(campaign, 'DELETE')).toEqual({ remove: campaign });
    const budget = 'customers/1234567890/campaignBudgets/14567890123';
    expect(budgetBody(budget, 7500n, 2, false)).toEqual({
      operations: [{ updateMask: 'amountMicros', update: { resourceName: budget, amountMicros: '75000000' } }],
    });
    expect(budgetBody(budget, 7500n, 0, true)).toEqual({
      operations: [{ updateMask: 'amountMicros', update: { resourceName: budget, amountMicros: '7500000000' } }],
      validateOnly: true,
    });
    expect((budgetBody(budget, 75125n, 3, false).operations as Array<{ update: { amountMicros: string } }>)[0]?.update.amountMicros).toBe('75125000');
  });

  it('professional: a Rest.li patch, the budget as a decimal string with the currency', () => {
    expect(patchOf({ status: 'PAUSED' })).toEqual({ patch: { $set: { status: 'PAUSED' } } });
    expect(patchOf(dailyBudgetOf(7500n, 2, 'USD'))).toEqual({ patch: { $set: { dailyBudget: { amount: '75.00', currencyCode: 'USD' } } } });
    expect(dailyBudgetOf(75125n, 3, 'KWD')).toEqual({ dailyBudget: { amount: '75.125', currencyCode: 'KWD' } });
  });
});
