import { stringify } from 'csv-stringify/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvLines } from '../../shared/core/csv-lines.ts';

/** The export's hand-written CSV lines (shared/core/csv-lines.ts) are csv-stringify's, field for field. */
describe('csvLines', () => {
  const cell = fc.option(fc.string({ unit: fc.constantFrom('a', 'Z', '1', ',', '"', '\n', '\r', '=', '+', '-', '@', '\t', ' ', 'é', '·') }), {
    nil: undefined,
  });
  it('writes what csv-stringify writes with escape_formulas, for any cells', () => {
    fc.assert(
      fc.property(fc.array(fc.array(cell, { minLength: 3, maxLength: 3 }), { minLength: 1, maxLength: 5 }), (rows) => {
        expect(csvLines(rows, (row) => row)).toBe(stringify(rows, { escape_formulas: true }));
      }),
      { numRuns: 2_000 },
    );
  });

  it('quotes what needs it and escapes a formula', () => {
    expect(csvLines([['=HYPERLINK("x")', 'a,b', undefined]], (row) => row)).toBe(`"'=HYPERLINK(""x"")","a,b",\n`);
  });
});
