/**
 * CSV lines of report rows, written by hand for one reason: speed. csv-stringify (which writes the
 * header, and which a unit test holds this to, field for field) spends about 5 µs a row on its
 * general machinery; an export of a million rows is then mostly CSV. This writer knows its fields are
 * strings or absent, and does the two things the library does for them: a cell a spreadsheet would
 * run as a formula (= + - @ tab or carriage return first) gets a leading apostrophe, and a cell with a
 * comma, a quote or a line break is quoted, its quotes doubled (RFC 4180). docs/reports.md, "Exports".
 */
const FORMULA_FIRST = new Set(['=', '+', '-', '@', '\t', '\r']);
const NEEDS_QUOTES = /[",\r\n]/;

export function csvCell(value: string | undefined): string {
  if (value === undefined || value === '') return '';
  const text = FORMULA_FIRST.has(value[0] as string) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One line per row, each cell as `cellsOf` reads it from the row, in the columns' order. */
export function csvLines<Row>(rows: readonly Row[], cellsOf: (row: Row) => ReadonlyArray<string | undefined>): string {
  let text = '';
  for (const row of rows) text += `${cellsOf(row).map(csvCell).join(',')}\n`;
  return text;
}
