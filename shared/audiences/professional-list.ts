import { stringify } from 'csv-stringify/sync';
import { CsvProblem, readCsv } from './csv-reader.ts';
import { isSha256Hex, sha256Hex } from './sha256.ts';

/**
 * A professional-network list CSV checked against the template of its type (contract
 * professional.md §3) and rewritten for upload: template header names in template order, e-mails
 * SHA-256-hashed, advertising ids lower case, countries upper case; unusable rows left out and
 * reported; fully empty and repeated rows dropped.
 */
export type ListType = 'USER_LIST_UPLOAD' | 'COMPANY_LIST_UPLOAD';

export const LIST_TEMPLATES: Record<ListType, readonly string[]> = {
  USER_LIST_UPLOAD: ['email', 'firstname', 'lastname', 'jobtitle', 'employeecompany', 'country', 'googleaid'],
  COMPANY_LIST_UPLOAD: ['companyname', 'companywebsite', 'companyemaildomain', 'linkedincompanypageurl', 'stocksymbol', 'industry', 'city', 'state', 'companycountry', 'zipcode'],
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
    throw new CsvProblem(`The CSV has column(s) that ${type} does not take: ${unknown.map((name) => name || '(empty)').join(', ')}; its columns are ${template.join(', ')}.`);
  }
  const repeated = names.find((name, index) => names.indexOf(name) !== index);
  if (repeated) throw new CsvProblem(`The column ${repeated} appears twice.`);
  return names;
}

/** A row's values by template name, normalised; a reason when the row cannot be used. */
function prepareRow(type: ListType, names: string[], cells: string[]): Record<string, string> | string {
  const row: Record<string, string> = {};
  names.forEach((name, index) => (row[name] = (cells[index] ?? '').trim()));
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

export async function prepareProfessionalList(type: ListType, bytes: AsyncIterable<Uint8Array>): Promise<PreparedList> {
  let names: string[] | undefined;
  const seen = new Set<string>();
  const records: string[][] = [];
  const skipped: string[] = [];
  let dataRows = 0;
  for await (const record of (async function* () {
    for await (const records of readCsv(bytes)) yield* records;
  })()) {
    if (!names) {
      names = templateColumns(type, record.cells);
      continue;
    }
    if (record.cells.every((cell) => cell.trim() === '')) continue;
    dataRows++;
    if (dataRows > MAX_LIST_ROWS) throw new CsvProblem(`The list has more than ${MAX_LIST_ROWS} rows, more than the platform takes in one list.`);
    const row = prepareRow(type, names, record.cells);
    if (typeof row === 'string') {
      skipped.push(`line ${record.line}: ${row}`);
      continue;
    }
    const ordered = LIST_TEMPLATES[type].filter((name) => names?.includes(name)).map((name) => row[name] ?? '');
    const identity = JSON.stringify(ordered);
    if (seen.has(identity)) continue;
    seen.add(identity);
    records.push(ordered);
  }
  if (!names) throw new CsvProblem('The file is empty; upload a CSV with the template header and one row per entry.');
  if (dataRows === 0) throw new CsvProblem('The file has a header but no data rows.');
  if (records.length === 0) throw new CsvProblem(`None of the ${dataRows} rows can be used; for example ${skipped[0]}.`);

  const warnings: string[] = [];
  if (skipped.length > 0) {
    warnings.push(`${skipped.length} row(s) were left out: ${skipped.slice(0, 10).join('; ')}${skipped.length > 10 ? '; …' : ''}.`);
  }
  if (records.length < MIN_LIST_ROWS) {
    warnings.push(`The list has ${records.length} usable rows; the platform needs at least ${MIN_LIST_ROWS} to build an audience and may refuse it.`);
  }
  const header = LIST_TEMPLATES[type].filter((name) => names?.includes(name));
  return { csv: stringify([header, ...records]), rows: records.length, warnings };
}
