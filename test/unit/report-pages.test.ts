import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidRequest } from '../../shared/core/errors.ts';
import { pageAfter, type RawReportRow } from '../../shared/platforms/report-rows.ts';

/**
 * The pages we make of a report a platform gives whole (search ads, the professional network): each page
 * runs the platform's query again, so rows may come and go between two pages (another request made a
 * campaign meanwhile). A page starts after the last row of the page before, never at a count of rows.
 */
const row = (campaignId: string, adSetId: string, value: string): RawReportRow => ({
  campaignId,
  adSetId,
  name: '',
  dimension: { id: value, name: value },
  impressions: '1',
  clicks: '0',
  spend: '0',
  conversions: '0',
  conversionValue: '0',
});
const placeOf = (r: RawReportRow) => `${r.campaignId}|${r.adSetId}|${r.dimension?.id}`;

/** Page i read from reads[i] (the platform's answer at that moment), until a page has no next or the reads run out. */
function readAll(reads: Array<readonly RawReportRow[]>, pageRows: number): { rows: RawReportRow[]; pagesRead: number; finished: boolean } {
  const rows: RawReportRow[] = [];
  let cursor: string | undefined;
  for (const [index, source] of reads.entries()) {
    const page = pageAfter(source, cursor, pageRows);
    rows.push(...page.rows);
    cursor = page.next;
    if (!cursor) return { rows, pagesRead: index + 1, finished: true };
  }
  return { rows, pagesRead: reads.length, finished: false };
}

describe('pages of a report read whole', () => {
  it('rows added before the cursor between two pages move nothing: no row twice, every row of the first read once', () => {
    const first = Array.from({ length: 10 }, (_, index) => row('2', String(100 + index), 'AGE_RANGE_25_34'));
    // a campaign made meanwhile whose id sorts before every row of the first page
    const second = [...first, row('1', '100', 'AGE_RANGE_25_34'), row('1', '101', 'AGE_RANGE_25_34')];
    const { rows, finished } = readAll([first, second, second], 4);
    expect(finished).toBe(true);
    expect(rows.map(placeOf)).toEqual(first.map(placeOf));
  });

  it('orders places as plain strings: ids of different lengths never tie (a collation ignores separators)', () => {
    // joined with NUL, "12"+"345" and "123"+"45" compare equal under localeCompare
    const rows = [row('123', '45', 'A'), row('12', '345', 'A')];
    const firstPage = pageAfter(rows, undefined, 1);
    const secondPage = pageAfter(rows, firstPage.next, 1);
    expect([...firstPage.rows, ...secondPage.rows].map(placeOf)).toEqual(['12|345|A', '123|45|A']);
    expect(secondPage.next).toBeUndefined();
  });

  it('for any rows added or dropped between pages: no place twice, and every row present throughout comes once', () => {
    const place = fc.record({
      campaign: fc.constantFrom('1', '12', '123', '2'),
      adSet: fc.constantFrom('3', '34', '345', '4'),
      value: fc.constantFrom('A', 'B'),
    });
    const rowsOf = (places: Array<{ campaign: string; adSet: string; value: string }>) => [
      ...new Map(places.map((p) => [`${p.campaign}|${p.adSet}|${p.value}`, row(p.campaign, p.adSet, p.value)])).values(),
    ];
    fc.assert(
      fc.property(fc.array(fc.array(place, { maxLength: 30 }), { minLength: 1, maxLength: 12 }), fc.integer({ min: 1, max: 7 }), (reads, pageRows) => {
        const sources = reads.map(rowsOf);
        const { rows, pagesRead, finished } = readAll(sources, pageRows);
        const read = rows.map(placeOf);
        expect(new Set(read).size).toBe(read.length);
        // a read that ended: every row each page's answer held came, once
        const answers = sources.slice(0, pagesRead).map((source) => new Set(source.map(placeOf)));
        const throughout = [...(answers[0] ?? [])].filter((key) => answers.every((answer) => answer.has(key)));
        if (finished) for (const key of throughout) expect(read).toContain(key);
      }),
    );
  });

  it('refuses a cursor it did not make', () => {
    for (const cursor of ['5000', 'not json', '["a"]', '[1,2,3,4,5]']) expect(() => pageAfter([], cursor, 10)).toThrow(InvalidRequest);
  });
});
