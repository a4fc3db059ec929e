import fc from 'fast-check';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { CsvProblem, detectDelimiter, MAX_LINE_BYTES, readCsv, type CsvRecord } from '../../shared/audiences/csv-reader.ts';

/** The file's bytes cut at the given offsets: characters, CRLFs and quotes split across pieces. */
const inPieces = (file: Buffer, cuts: number[]) =>
  (async function* () {
    let at = 0;
    for (const cut of [...new Set(cuts.map((cut) => cut % (file.length + 1)))].sort((a, b) => a - b)) {
      yield file.subarray(at, cut);
      at = cut;
    }
    yield file.subarray(at);
  })();

async function read(file: Buffer, cuts: number[] = []): Promise<{ delimiter: string; records: CsvRecord[] } | { problem: string }> {
  const records: CsvRecord[] = [];
  let delimiter = '';
  try {
    for await (const step of readCsv(inPieces(file, cuts))) {
      delimiter = step.delimiter;
      records.push(...step.records);
    }
  } catch (error) {
    if (error instanceof CsvProblem) return { problem: error.message };
    throw error;
  }
  return { delimiter, records };
}

/** csv-parse reading the whole file at once, with the options the reader followed before it cut records itself. */
function reference(file: Buffer, delimiter: string): Array<{ cells: string[]; endByte: number }> | 'error' {
  try {
    const parsed = parse(file, { delimiter, record_delimiter: ['\r\n', '\n', '\r'], bom: true, skip_empty_lines: true, info: true }) as unknown as Array<{
      record: string[];
      info: { bytes: number };
    }>;
    return parsed.map(({ record, info }) => ({ cells: record, endByte: info.bytes }));
  } catch {
    return 'error';
  }
}

/** Any text of a CSV's characters: mostly ill-formed. */
const anyText = fc
  .array(fc.constantFrom('a', 'B', ' ', 'é', '😀', ',', ';', '\t', '"', '""', '\n', '\r', '\r\n', '@'), { maxLength: 60 })
  .map((parts) => parts.join(''));
/** Well-formed records of plain and quoted fields (quotes, delimiters and line breaks inside), now and then one field off. */
const field = fc.oneof(
  fc.stringMatching(/^[a-zé😀 @.+-]{0,6}$/u),
  fc.array(fc.constantFrom('a', 'é', ',', ';', '""', '\n', '\r\n', '\r', ' '), { maxLength: 6 }).map((parts) => `"${parts.join('')}"`),
);
const records = fc
  .tuple(fc.constantFrom(',', ';', '\t'), fc.integer({ min: 1, max: 4 }))
  .chain(([delimiter, width]) =>
    fc
      .array(
        fc.tuple(
          fc.oneof(
            { arbitrary: fc.array(field, { minLength: width, maxLength: width }), weight: 9 },
            { arbitrary: fc.array(field, { minLength: width + 1, maxLength: width + 1 }), weight: 1 },
          ),
          fc.constantFrom('\n', '\r\n', '\r', '\n\n', ''),
        ),
        { maxLength: 8 },
      )
      .map((rows) => rows.map(([cells, lineBreak]) => cells.join(delimiter) + lineBreak).join('')),
  );
const csvText = fc.oneof(anyText, records);

describe('the CSV reader', () => {
  it('reads any text as csv-parse does: the same records, each ending at the same byte, or both refuse it', async () => {
    await fc.assert(
      fc.asyncProperty(csvText, fc.boolean(), fc.array(fc.nat(200), { maxLength: 6 }), async (text, bom, cuts) => {
        const file = Buffer.from(`${bom ? '\uFEFF' : ''}${text}`);
        const ours = await read(file, cuts);
        const theirs = reference(file, detectDelimiter(text.split(/\r\n|\n|\r/, 1)[0] ?? ''));
        if ('problem' in ours) {
          // our refusal is csv-parse's, or one it would make with the delimiter the first line gives
          expect(theirs).toBe('error');
          return;
        }
        expect(theirs).not.toBe('error');
        expect(ours.records.map(({ cells, endByte }) => ({ cells, endByte }))).toEqual(theirs);
        expect(ours.records.map(({ line }) => line)).toEqual(ours.records.map((_, index) => index + 1));
      }),
      { numRuns: Number(process.env.RUNS ?? 3000) },
    );
  });

  it('cuts records at every kind of line break and keeps quoted delimiters and line breaks in their field', async () => {
    const file = Buffer.from('email,note\r\na@example.com,"x, ""y""\r\nz"\nb@example.com,plain\rc@example.com,""\n\n');
    const result = await read(file, [15, 16, 30]);
    expect(result).toEqual({
      delimiter: ',',
      records: [
        { line: 1, cells: ['email', 'note'], endByte: 12 },
        { line: 2, cells: ['a@example.com', 'x, "y"\r\nz'], endByte: 40 },
        { line: 3, cells: ['b@example.com', 'plain'], endByte: 60 },
        { line: 4, cells: ['c@example.com', ''], endByte: 77 },
      ],
    });
  });

  it.each([
    ['a quote never closed', 'email,phone\n"a@example.com,1\nb@example.com,2\n', /quoted field that is never closed \(it starts at line 2\)/],
    ['a stray character after a closing quote', 'email,phone\n"a@example.com"x,1\n', /stray character after a closing quote at line 2/],
    ['a quote inside an unquoted field', 'email,phone\na@exa"mple.com,1\nb@example.com,2\n', /quote inside an unquoted field at line 2/],
    ['a row of another width', 'email,phone\na@example.com,1\nb@example.com\n', /At line 3 the number of fields differs/],
    ['a quoted row of another width', 'email,phone\n"a@example.com"\n', /At line 2 the number of fields differs/],
    ['a line past 64 KB', `email\n${'a'.repeat(MAX_LINE_BYTES)}@example.com\n`, /At line 2 a line is longer than 64 KB/],
    ['a quote left open past 64 KB', `email\n"${'a'.repeat(MAX_LINE_BYTES)}\n`, /At line 2 a quoted field goes on past 64 KB/],
  ])('refuses %s with a sentence naming its line', async (_label, text, sentence) => {
    const result = await read(Buffer.from(text), [7, 4000]);
    expect(result).toEqual({ problem: expect.stringMatching(sentence) });
  });

  it('holds no more than one unfinished record while it waits for a line break', async () => {
    // a file that never breaks its line is refused once the line passes the limit, not read to the end
    let given = 0;
    const endless = (async function* () {
      yield Buffer.from('email\n');
      for (;;) {
        given += 16 * 1024;
        yield Buffer.alloc(16 * 1024, 'a');
      }
    })();
    await expect(
      (async () => {
        for await (const _ of readCsv(endless));
      })(),
    ).rejects.toThrow(/longer than 64 KB/);
    expect(given).toBeLessThanOrEqual(MAX_LINE_BYTES + 16 * 1024);
  });
});
