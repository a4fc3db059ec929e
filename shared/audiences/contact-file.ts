import { CsvProblem, readCsv } from './csv-reader.ts';
import { sha256Hex } from './sha256.ts';
import { contactLayout, hashContactRow, type ContactLayout, type HashedRow } from './contact-rows.ts';

/**
 * A social contact CSV, row by row: the layout from the first record, then each data row hashed.
 * `visit` sees every row with its line number; the promise it returns is awaited, so the caller
 * controls the pace (a batch upload in between). The first `skipRows` data rows (sent before a
 * resume) are only counted: neither hashed nor visited. `hash: false` normalises without hashing,
 * for a check of the file that sends nothing.
 */
export async function forEachContactRow(
  bytes: AsyncIterable<Uint8Array>,
  visit: (row: HashedRow, line: number, layout: ContactLayout) => void | Promise<void>,
  skipRows = 0,
  hash = true,
): Promise<{ layout: ContactLayout; dataRows: number }> {
  const digest = hash ? sha256Hex : (value: string) => value;
  let layout: ContactLayout | undefined;
  let dataRows = 0;
  for await (const records of readCsv(bytes)) {
    for (const record of records) {
      if (!layout) {
        layout = contactLayout(record.cells);
        if (layout.hasHeader) continue;
      }
      dataRows++;
      if (dataRows <= skipRows) continue;
      const visited = visit(hashContactRow(record.cells, layout, digest), record.line, layout);
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
