import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { clock } from '../../shared/core/clock.ts';
import Big from 'big.js';
import fc from 'fast-check';
import { dailyRow, metricOf, rowMetrics, type Totals } from '../../shared/platforms/performance.ts';
import { PERFORMANCE_METRICS } from '../../shared/schemas/performance.ts';
import { analyticsQuery, countsOfElement, type AnalyticsElement } from '../../shared/platforms/professional/analytics.ts';
import { countsOfInsight, DEFAULT_CONVERSION_TYPES, type InsightRow } from '../../shared/platforms/social/insights.ts';

/** The pure mappers of daily performance, on the platforms' documented sample answers (no stack). */
/** a day of figures, relative to today: the mapper passes it through as it is */
const lastWeek = clock.today(-7);
const fixture = <T>(name: string) => JSON.parse(readFileSync(new URL(`../fixtures/control/${name}`, import.meta.url), 'utf8')) as T;

describe('one daily row on every platform', () => {
  it('derives ctr, cpc, cpm and cost per conversion from the counts, rounded half-even', () => {
    expect(
      dailyRow({ date: lastWeek, impressions: '15234', clicks: '312', spend: '48.27', conversions: '14', conversionValue: '0', reach: '9876' }, 2),
    ).toEqual({
      date: lastWeek,
      impressions: '15234',
      clicks: '312',
      spend: '48.27',
      ctr: '0.020481',
      cpc: '0.15',
      cpm: '3.17',
      conversions: '14',
      conversionValue: '0.00',
      costPerConversion: '3.45',
      reach: '9876',
    });
    // 0.125 → 0.12 and 0.135 → 0.14: half to even, exactly (no float)
    expect(dailyRow({ date: 'd', impressions: '1000', clicks: '8', spend: '1.00', conversions: '8', conversionValue: '0' }, 2).cpc).toBe('0.12');
    expect(dailyRow({ date: 'd', impressions: '1000', clicks: '1', spend: '0.135', conversions: '0', conversionValue: '0' }, 2).spend).toBe('0.14');
  });

  it('leaves a ratio out when its denominator is 0: never Infinity or NaN', () => {
    const row = dailyRow({ date: 'd', impressions: '0', clicks: '0', spend: '3.10', conversions: '0', conversionValue: '0' }, 2);
    expect(row).toEqual({ date: 'd', impressions: '0', clicks: '0', spend: '3.10', conversions: '0', conversionValue: '0.00' });
    expect(JSON.stringify(row)).not.toMatch(/Infinity|NaN/);
  });

  it('clientCostAdjustment scales spend, cpc, cpm and cost per conversion, never the conversion value; JPY has no decimals', () => {
    const row = dailyRow({ date: 'd', impressions: '2000', clicks: '40', spend: '100', conversions: '4', conversionValue: '300' }, 2, 10);
    expect(row).toMatchObject({ spend: '110.00', cpc: '2.75', cpm: '55.00', costPerConversion: '27.50', conversionValue: '300.00' });
    expect(dailyRow({ date: 'd', impressions: '2000', clicks: '3', spend: '10000', conversions: '0', conversionValue: '0' }, 0)).toMatchObject({
      spend: '10000',
      cpc: '3333',
    });
  });
});

describe('the social platform’s insights', () => {
  it('counts the conversion action types, and their values', () => {
    const { data } = fixture<{ data: InsightRow[] }>('meta-insights-campaign-daily.json');
    expect(data.map((row) => countsOfInsight(row, DEFAULT_CONVERSION_TYPES))).toEqual([
      { date: '2024-11-01', impressions: '15234', clicks: '312', spend: '48.27', conversions: '14', conversionValue: '0', reach: '9876' },
      { date: '2024-11-02', impressions: '14011', clicks: '298', spend: '49.90', conversions: '11', conversionValue: '0', reach: '9120' },
    ]);
    expect(countsOfInsight(data[0] as InsightRow, ['link_click']).conversions).toBe('303');
  });
});

describe('the professional network’s analytics', () => {
  it('maps elements (binary noise in the cost included) and adds one-click leads to website conversions', () => {
    const { elements } = fixture<{ elements: AnalyticsElement[] }>('li-adanalytics-campaign-daily.json');
    const [first] = elements.map(countsOfElement);
    expect(first).toEqual({
      campaignId: '600000101',
      date: '2026-11-01',
      impressions: '4120',
      clicks: '37',
      spend: '68.5300000000000335346',
      conversions: '2',
      conversionValue: '0',
    });
    expect(dailyRow(first as NonNullable<typeof first>, 2).spend).toBe('68.53');
    expect(countsOfElement({ ...elements[0], oneClickLeads: 3 }).conversions).toBe('5');
  });

  it('writes the Rest.li query by hand: structure characters as they are, URNs percent-encoded, no leading zeros', () => {
    expect(analyticsQuery({ campaignIds: ['600000101', '600000102'] }, '2026-01-05', '2026-11-07')).toBe(
      'q=analytics&pivot=CAMPAIGN&timeGranularity=DAILY&dateRange=(start:(year:2026,month:1,day:5),end:(year:2026,month:11,day:7))' +
        '&campaigns=List(urn%3Ali%3AsponsoredCampaign%3A600000101,urn%3Ali%3AsponsoredCampaign%3A600000102)' +
        '&fields=dateRange,pivotValues,impressions,clicks,costInLocalCurrency,externalWebsiteConversions,oneClickLeads,conversionValueInLocalCurrency',
    );
    expect(analyticsQuery({ accountId: '500000001' }, '2026-11-01', '2026-11-01')).toContain('accounts=List(urn%3Ali%3AsponsoredAccount%3A500000001)');
  });
});

/** Counts of at most 9 decimals, where the decimal library's 20 places are exact; past them the integer path stays exact and the library may not (below). */
describe('rowMetrics: the integer path gives what the decimal library gives', () => {
  const decimal = (integerDigits: number, fractionDigits: number) =>
    fc
      .tuple(
        fc.bigInt({ min: 0n, max: 10n ** BigInt(integerDigits) }),
        fc.integer({ min: 0, max: fractionDigits }),
        fc.bigInt({ min: 0n, max: 10n ** BigInt(fractionDigits) }),
      )
      .map(([whole, digits, fraction]) =>
        digits === 0 ? whole.toString() : `${whole}.${(fraction % 10n ** BigInt(digits)).toString().padStart(digits, '0')}`,
      );
  it('for every plain decimal count and each currency’s decimals', () => {
    fc.assert(
      fc.property(
        fc.record({ impressions: decimal(9, 0), clicks: decimal(7, 0), spend: decimal(8, 9), conversions: decimal(5, 3), conversionValue: decimal(8, 6) }),
        fc.constantFrom(0, 2, 3),
        (counts, decimals) => {
          const totals = Object.fromEntries(Object.entries(counts).map(([name, value]) => [name, new Big(value)])) as unknown as Totals;
          const expected = Object.fromEntries(
            PERFORMANCE_METRICS.flatMap((metric) => {
              const value = metricOf(totals, metric, decimals);
              return value === undefined ? [] : [[metric, value]];
            }),
          );
          expect(rowMetrics(counts, decimals)).toEqual(expected);
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('stays exact where the decimal library stops at 20 decimals: a noisy cost a hair above a half rounds up', () => {
    const counts = { impressions: '0', clicks: '0', spend: '31295517.000000000000000000001', conversions: '2', conversionValue: '0' };
    // the decimal library divides to 20 places, sees an exact half and rounds it to even: 15647758
    expect(rowMetrics(counts, 0).costPerConversion).toBe('15647759');
  });

  it('takes the decimal library’s way for anything but a plain decimal', () => {
    expect(rowMetrics({ impressions: '1e3', clicks: '10', spend: '5', conversions: '0', conversionValue: '0' }, 2)).toMatchObject({
      impressions: '1000',
      ctr: '0.010000',
    });
  });
});
