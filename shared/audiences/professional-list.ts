import { createHash } from 'node:crypto';
import { stringify } from 'csv-stringify/sync';
import { CsvProblem, readCsv } from './csv-reader.ts';
import { isSha256Hex, sha256Hex } from './sha256.ts';
import type { ListType } from '../schemas/audiences.ts';
import { clock } from '../core/clock.ts';

/**
 * A professional-network list CSV checked against the template of its type (docs/csv.md) and rewritten for upload: template header names in template order, e-mails
 * SHA-256-hashed, advertising ids lower case, countries upper case; unusable rows left out and
 * reported; fully empty and repeated rows dropped.
 */
export type { ListType };

export const LIST_TEMPLATES: Record<ListType, readonly string[]> = {
  USER_LIST_UPLOAD: ['email', 'firstname', 'lastname', 'jobtitle', 'employeecompany', 'country', 'googleaid'],
  COMPANY_LIST_UPLOAD: [
    'companyname',
    'companywebsite',
    'companyemaildomain',
    'linkedincompanypageurl',
    'stocksymbol',
    'industry',
    'city',
    'state',
    'companycountry',
    'zipcode',
  ],
};

export const MIN_LIST_ROWS = 300;
export const MAX_LIST_ROWS = 300_000;
const MAX_LENGTHS: Record<string, number> = { firstname: 35, lastname: 35, jobtitle: 50, employeecompany: 50 };
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const ADVERTISING_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export interface PreparedList {
  csv: string;
  rows: number;
  warnings: string[];
}

/** The header checked against the type's template: unknown names and the other type's names are refused. */
function templateColumns(type: ListType, header: string[]): string[] {
  const names = header.map((cell) => cell.trim().toLowerCase());
  const template = LIST_TEMPLATES[type];
  const otherType: ListType = type === 'USER_LIST_UPLOAD' ? 'COMPANY_LIST_UPLOAD' : 'USER_LIST_UPLOAD';
  const foreign = names.filter((name) => !template.includes(name) && LIST_TEMPLATES[otherType].includes(name));
  if (foreign.length > 0 && names.every((name) => !template.includes(name) || LIST_TEMPLATES[otherType].includes(name))) {
    throw new CsvProblem(`The columns (${names.join(', ')}) are those of ${otherType}, not of ${type}; choose the matching type or the matching file.`);
  }
  const unknown = names.filter((name) => !template.includes(name));
  if (unknown.length > 0) {
    throw new CsvProblem(
      `The CSV has column(s) that ${type} does not take: ${unknown.map((name) => name || '(empty)').join(', ')}; its columns are ${template.join(', ')}.`,
    );
  }
  const repeated = names.find((name, index) => names.indexOf(name) !== index);
  if (repeated) throw new CsvProblem(`The column ${repeated} appears twice.`);
  return names;
}

/** A row's values by template name, normalised; a reason when the row cannot be used. */
function prepareRow(type: ListType, names: string[], cells: string[]): Record<string, string> | string {
  const row: Record<string, string> = {};
  for (const [index, name] of names.entries()) row[name] = (cells[index] ?? '').trim();
  if (type === 'COMPANY_LIST_UPLOAD') {
    if (!row.companyname) return 'companyname is empty';
    if (row.companycountry) row.companycountry = row.companycountry.toUpperCase();
    return row;
  }
  for (const [name, max] of Object.entries(MAX_LENGTHS)) {
    if ((row[name]?.length ?? 0) > max) return `${name} is longer than ${max} characters`;
  }
  if (row.email) {
    const email = row.email.toLowerCase();
    if (isSha256Hex(email)) row.email = email;
    else if (EMAIL.test(email)) row.email = sha256Hex(email);
    else return 'email is not an e-mail address';
  }
  if (row.googleaid) {
    row.googleaid = row.googleaid.toLowerCase();
    if (!ADVERTISING_ID.test(row.googleaid)) return 'googleaid is not an advertising id';
  }
  if (row.country) {
    row.country = row.country.toUpperCase();
    if (!/^[A-Z]{2}$/.test(row.country)) return 'country is not a 2-letter code';
  }
  if (!row.email && !row.googleaid && !(row.firstname && row.lastname)) return 'no email, googleaid, or first and last name';
  return row;
}

/** The list's rows, checked and rewritten in template order: the header first, then each usable, distinct row or the reason a row is left out. */
async function* preparedRows(type: ListType, bytes: AsyncIterable<Uint8Array>): AsyncGenerator<{ header: string[] } | { row: string[] } | { skipped: string }> {
  let names: string[] | undefined;
  const seen = new Set<string>();
  let dataRows = 0;
  let usable = 0;
  let firstSkipped: string | undefined;
  for await (const { records } of readCsv(bytes)) {
    for (const record of records) {
      if (!names) {
        names = templateColumns(type, record.cells);
        yield { header: LIST_TEMPLATES[type].filter((name) => names?.includes(name)) };
        continue;
      }
      if (record.cells.every((cell) => cell.trim() === '')) continue;
      dataRows++;
      if (dataRows > MAX_LIST_ROWS) throw new CsvProblem(`The list has more than ${MAX_LIST_ROWS} rows, more than the platform takes in one list.`);
      const row = prepareRow(type, names, record.cells);
      if (typeof row === 'string') {
        firstSkipped ??= `line ${record.line}: ${row}`;
        yield { skipped: `line ${record.line}: ${row}` };
        continue;
      }
      const ordered = LIST_TEMPLATES[type].filter((name) => names?.includes(name)).map((name) => row[name] ?? '');
      // a digest, not the row: the set of a 300,000-row list stays small
      const identity = createHash('sha256').update(JSON.stringify(ordered)).digest('base64');
      if (seen.has(identity)) continue;
      seen.add(identity);
      usable++;
      yield { row: ordered };
    }
  }
  if (!names) throw new CsvProblem('The file is empty; upload a CSV with the template header and one row per entry.');
  if (dataRows === 0) throw new CsvProblem('The file has a header but no data rows.');
  if (usable === 0) throw new CsvProblem(`None of the ${dataRows} rows can be used; for example ${firstSkipped}.`);
}

export interface CheckedList {
  rows: number;
  warnings: string[];
  /** the size of the rewritten file professionalListCsv produces: its upload declares it */
  csvBytes: number;
}

/** The whole list checked (every problem a 400), its usable rows counted and its rewritten size measured, nothing kept. */
export async function checkProfessionalList(type: ListType, bytes: AsyncIterable<Uint8Array>, onRow?: () => void): Promise<CheckedList> {
  let rows = 0;
  let csvBytes = 0;
  const skipped: string[] = [];
  let skippedCount = 0;
  for await (const item of preparedRows(type, bytes)) {
    if ('header' in item) csvBytes += Buffer.byteLength(stringify([item.header]));
    else if ('row' in item) {
      rows++;
      csvBytes += Buffer.byteLength(stringify([item.row]));
    } else {
      skippedCount++;
      if (skipped.length < 10) skipped.push(item.skipped);
    }
    if (!('header' in item)) onRow?.();
  }
  return { rows, warnings: listWarnings(rows, skippedCount, skipped), csvBytes };
}

/** What the answer tells about rows left out (the first ten) and a list too short to build. */
function listWarnings(rows: number, skippedCount: number, firstSkipped: string[]): string[] {
  const warnings: string[] = [];
  if (skippedCount > 0) warnings.push(`${skippedCount} row(s) were left out: ${firstSkipped.slice(0, 10).join('; ')}${skippedCount > 10 ? '; …' : ''}.`);
  if (rows < MIN_LIST_ROWS)
    warnings.push(`The list has ${rows} usable rows; the platform needs at least ${MIN_LIST_ROWS} to build an audience and may refuse it.`);
  return warnings;
}

/** The rewritten list as CSV bytes, produced as they are read: the file is never held whole. */
export async function* professionalListCsv(type: ListType, bytes: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  const encoder = new TextEncoder();
  let chunk: string[][] = [];
  for await (const item of preparedRows(type, bytes)) {
    if ('header' in item) chunk.push(item.header);
    else if ('row' in item) chunk.push(item.row);
    if (chunk.length >= 1_000) {
      yield encoder.encode(stringify(chunk));
      chunk = [];
    }
  }
  if (chunk.length > 0) yield encoder.encode(stringify(chunk));
}

/** The list checked and rewritten in memory (the multipart upload, a file of at most 4 MB). */
export async function prepareProfessionalList(type: ListType, bytes: AsyncIterable<Uint8Array>): Promise<PreparedList> {
  const lines: string[][] = [];
  const skipped: string[] = [];
  for await (const item of preparedRows(type, bytes)) {
    if ('header' in item) lines.push(item.header);
    else if ('row' in item) lines.push(item.row);
    else skipped.push(item.skipped);
  }
  const rows = lines.length - 1;
  return { csv: stringify(lines), rows, warnings: listWarnings(rows, skipped.length, skipped) };
}

const TYPE_LABELS: Record<ListType, string> = { USER_LIST_UPLOAD: 'Contact list', COMPANY_LIST_UPLOAD: 'Company list' };

/** Without a name: "Contact list upload YYYY-MM-DDTHH:MMZ", the upload time in UTC. */
export const defaultAudienceName = (type: ListType, now = clock.date()) => `${TYPE_LABELS[type]} upload ${now.toISOString().slice(0, 16)}Z`;
