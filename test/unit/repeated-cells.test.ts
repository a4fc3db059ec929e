import fc from 'fast-check';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { contactLayout, hashContactRow } from '../../shared/audiences/contact-rows.ts';
import { sha256Hex } from '../../shared/audiences/normalize.ts';
import { RepeatedCells } from '../../shared/audiences/repeated-cells.ts';

/** SHA-256 that lists what it hashed */
const counting = () => {
  const hashed: string[] = [];
  return {
    hashed,
    digest: (value: string) => {
      hashed.push(value);
      return sha256Hex(value);
    },
  };
};

describe('remembered cells', () => {
  it('work out a repeating column’s cell once, and an e-mail every time, giving what hashing each row gives', () => {
    const layout = contactLayout(['email', 'first_name', 'zip']);
    const { hashed, digest } = counting();
    const repeated = new RepeatedCells();
    for (let row = 0; row < 3; row++) {
      expect(hashContactRow(['Mary@Example.com', 'Mary-Ann', '94025-1234'], layout, digest, repeated)).toEqual(
        hashContactRow(['Mary@Example.com', 'Mary-Ann', '94025-1234'], layout),
      );
    }
    expect(hashed).toEqual(['mary@example.com', 'maryann', '94025', 'mary@example.com', 'mary@example.com']);
  });

  it('remember zip codes and states with the row’s country, whose rules they follow', () => {
    const layout = contactLayout(['email', 'zip', 'state', 'country']);
    const repeated = new RepeatedCells();
    const rows = [
      ['a@example.com', 'SW1A 1AA', 'Kent', 'GB'],
      ['b@example.com', 'SW1A 1AA', 'Kent', 'FR'],
      ['c@example.com', 'SW1A 1AA', 'Kent', ''],
      ['d@example.com', '94025-1234', 'California', 'US'],
      ['e@example.com', '94025-1234', 'California', 'GB'],
      // a cell that spells out another country's key is still its own cell
      ['f@example.com', 'US\u000094025-1234', 'US\u0000California', ''],
    ];
    for (const cells of [...rows, ...rows]) expect(hashContactRow(cells, layout, sha256Hex, repeated)).toEqual(hashContactRow(cells, layout));
  });

  it('give every row what hashing it alone gives, whatever the rows, however full and however they repeat', () => {
    const layout = contactLayout(['email', 'first_name', 'last_name', 'zip', 'state', 'country', 'gender', 'doby']);
    const cell = (...choices: string[]) => fc.constantFrom(...choices);
    const row = fc.tuple(
      cell('a@example.com', 'B@example.com', 'not-an-email', ''),
      cell('Mary', 'MARY', ' mary ', 'Zoë', '123', ''),
      cell("O'Brien", 'obrien', 'Müller', ''),
      cell('SW1A 1AA', '94025', '94025-1234', 'M1 1AE', 'x', ''),
      cell('California', 'CA', 'Kent', 'Narnia', ''),
      cell('US', 'GB', 'FR', 'us', 'Atlantis', ''),
      cell('m', 'Female', 'x', ''),
      cell('1985', '1899', ''),
    );
    fc.assert(
      fc.property(fc.array(row, { maxLength: 60 }), fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 6 }), (rows, capacity, sample) => {
        const repeated = new RepeatedCells(capacity, sample);
        for (const cells of rows) expect(hashContactRow(cells, layout, sha256Hex, repeated)).toEqual(hashContactRow(cells, layout));
      }),
      { numRuns: 300 },
    );
  });

  it('keep no more than their capacity a column: past it a cell is worked out each time', () => {
    const layout = contactLayout(['first_name']);
    const { hashed, digest } = counting();
    const repeated = new RepeatedCells(2);
    for (const name of ['ann', 'bob', 'cy', 'cy', 'ann']) hashContactRow([name], layout, digest, repeated);
    expect(hashed).toEqual(['ann', 'bob', 'cy', 'cy']);
  });

  it('stop looking up a full column whose cells come back less than one time in four', () => {
    const layout = contactLayout(['first_name']);
    const { hashed, digest } = counting();
    const repeated = new RepeatedCells(1, 4);
    // ann is remembered; four lookups then miss, so the column is given up and ann is worked out again
    for (const name of ['ann', 'bo', 'cy', 'di', 'ed', 'ann']) hashContactRow([name], layout, digest, repeated);
    expect(hashed).toEqual(['ann', 'bo', 'cy', 'di', 'ed', 'ann']);
    // where one in four comes back, it is kept
    const kept = counting();
    const keeping = new RepeatedCells(1, 4);
    for (const name of ['ann', 'ann', 'bo', 'cy', 'di', 'ann']) hashContactRow([name], layout, kept.digest, keeping);
    expect(kept.hashed).toEqual(['ann', 'bo', 'cy', 'di']);
  });

  it('keep their cells in strings of their own, not the pieces of the file the cells were cut from', () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const layout = contactLayout(['last_name']);
    const repeated = new RepeatedCells();
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let piece = 0; piece < 40; piece++) {
      // a piece of a file as the reader holds it (512 KB of text in the heap), and a cell cut from it
      const text = Buffer.alloc(512 * 1024, `vandermeulenberg${piece},`).toString('latin1');
      const cell = text.slice(0, 200).split(',')[0] as string;
      hashContactRow([cell], layout, sha256Hex, repeated);
    }
    gc();
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(4 * 1024 * 1024); // 20 MB were it keeping the pieces
  });
});
