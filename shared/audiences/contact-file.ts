import { CsvProblem, readCsv, type CsvRecord, type CsvStart } from './csv-reader.ts';
import { contactLayout, hashContactRow, type ContactLayout, type HashedRow } from './contact-rows.ts';
import { RepeatedCells } from './repeated-cells.ts';
import { sha256Hex } from './sha256.ts';

/** Where a later read of the same file picks up: just past a data row, by a ranged read from `byte`. */
export interface ContactFileResume extends CsvStart {
  /** data rows up to it, unusable ones included */
  dataRows: number;
  layout: ContactLayout;
}

export interface ContactFileOptions {
  /** data rows (sent before a resume) only counted: neither hashed nor visited */
  skipRows?: number;
  /** false normalises without hashing, for a check of the file that sends nothing */
  hash?: boolean;
  /** the bytes are the file from `from.byte` on, read before up to there */
  from?: ContactFileResume;
}

/**
 * A social contact CSV, row by row: the layout from the first record, then each data row hashed.
 * `visit` sees every row with its line number, and can ask where a read after that row would pick
 * up; the promise it returns is awaited, so the caller controls the pace (a batch upload in between).
 */
export async function forEachContactRow(
  bytes: AsyncIterable<Uint8Array>,
  visit: (row: HashedRow, line: number, layout: ContactLayout, resumeAfter: () => ContactFileResume) => void | Promise<void>,
  { skipRows = 0, hash = true, from }: ContactFileOptions = {},
): Promise<{ layout: ContactLayout; dataRows: number }> {
  const digest = hash ? sha256Hex : (value: string) => value;
  const repeated = new RepeatedCells();
  let layout = from?.layout;
  let dataRows = from?.dataRows ?? 0;
  let delimiter = '';
  let current: CsvRecord | undefined;
  const resumeAfter = (): ContactFileResume => ({
    byte: current?.endByte ?? 0,
    line: current?.line ?? 0,
    delimiter,
    dataRows,
    layout: layout as ContactLayout,
  });
  for await (const step of readCsv(bytes, from)) {
    delimiter = step.delimiter;
    for (const record of step.records) {
      if (!layout) {
        layout = contactLayout(record.cells);
        if (layout.hasHeader) continue;
      }
      dataRows++;
      if (dataRows <= skipRows) continue;
      current = record;
      const visited = visit(hashContactRow(record.cells, layout, digest, repeated), record.line, layout, resumeAfter);
      if (visited) await visited; // only a batch upload waits; plain rows stay synchronous
    }
  }
  if (!layout) throw new CsvProblem('The file is empty; upload a CSV with a header row and one row per contact.');
  if (dataRows === 0) throw new CsvProblem('The file has a header but no data rows.');
  return { layout, dataRows };
}

/** At most 100 samples of unusable rows, keyed by line and column: `{"line 12 (phone)": "PHONE: …"}`. */
export class InvalidRowSamples {
  readonly samples: Record<string, string> = {};
  count = 0;
  add(line: number, invalid: { column: string; reason: string }): void {
    this.count++;
    if (Object.keys(this.samples).length < 100) this.samples[`line ${line} (${invalid.column})`] = invalid.reason;
  }
}
