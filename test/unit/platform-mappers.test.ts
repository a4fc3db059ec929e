import { describe, expect, it } from 'vitest';
import { toMicros } from '../../shared/platforms/searchads/campaign-mutate.ts';
import { formatNumber, fromMicros, statsRange, toStats } from '../../shared/platforms/searchads/stats.ts';
import { cursorParams, toPaging } from '../../shared/platforms/social/paging.ts';
import { fixture } from '../helpers/fixtures.ts';

/** The adapters' pure mappers, with no stack: the contracts' examples in, the spec's shapes out. */
describe('search-ads money and statistics', () => {
  it.each([
    ['50', '50000000'],
    ['19.99', '19990000'],
    ['0.000001', '1'],
    ['75.5', '75500000'],
    ['123456789012.123456', '123456789012123456'],
  ])('toMicros(%s) = %s, exactly', (amount, micros) => {
    expect(toMicros(amount)).toBe(micros);
  });

  it('fromMicros and formatNumber keep at most six decimals and no trailing zeros', () => {
    expect(fromMicros('61430000')).toBe('61.43');
    expect(fromMicros('1')).toBe('0.000001');
    expect(fromMicros(undefined)).toBe('0');
    expect(formatNumber(0.0389071)).toBe('0.038907');
    expect(formatNumber(Number.NaN)).toBe('0');
  });

  it('maps the contract’s 3-day stream to one item per day, every figure a string', () => {
    const [daily] = fixture('searchads/search-stream-campaign-daily.response.json') as Array<{ results: never[] }>;
    const stats = toStats(daily?.results ?? [], []);
    expect(stats).toHaveLength(3);
    expect(stats[0]).toMatchObject({
      campaignid: '21234567890',
      clicks: '47',
      cost: '61.43',
      ctr: '0.038907',
      cpc: '1.307021',
      timeUnit: 'DAY',
      display_spend: '0',
    });
    for (const item of stats) for (const [key, value] of Object.entries(item)) if (key !== 'primary_status_reasons') expect(typeof value, key).toBe('string');
  });

  it('the default range is the 30 days ending today, or ending at the end date given', () => {
    expect(statsRange(undefined, undefined, '2031-03-01')).toEqual({ startDate: '2031-01-31', endDate: '2031-03-01' });
    expect(statsRange(undefined, '2031-01-30', '2031-03-01')).toEqual({ startDate: '2031-01-01', endDate: '2031-01-30' });
  });
});

describe('social pagination', () => {
  it('keeps the platform’s cursors and never its URLs (they embed the access token)', () => {
    const paging = toPaging({
      cursors: { before: 'QVFIUmFh', after: 'QVFIUnpq' },
      next: 'https://graph.facebook.com/v26.0/act_1/adimages?access_token=SECRET&after=QVFIUnpq',
      previous: 'https://graph.facebook.com/v26.0/act_1/adimages?access_token=SECRET&before=QVFIUmFh',
    });
    expect(paging).toEqual({ next: 'after:QVFIUnpq', previous: 'before:QVFIUmFh' });
    expect(JSON.stringify(paging)).not.toContain('SECRET');
    expect(toPaging({ cursors: { before: 'a', after: 'b' } })).toEqual({}); // cursors without next: the last page
    expect(cursorParams(paging.next as string)).toEqual({ after: 'QVFIUnpq' });
    expect(() => cursorParams('https://evil.example.com/?after=x')).toThrow(/pagination/);
  });
});
