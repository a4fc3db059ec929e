import type { CountryCode } from 'libphonenumber-js/min';
import { CsvProblem } from './csv-reader.ts';
import { RepeatedCells } from './repeated-cells.ts';
import {
  HASHED_KEYS,
  isSha256Hex,
  normalizeCountry,
  normalizeEmail,
  normalizePhone,
  normalizeValue,
  sha256Hex,
  splitDateOfBirth,
  type RowContext,
} from './normalize.ts';
import type { ContactKey } from '../platforms/social/contact-keys.ts';

/**
 * A social contact CSV's columns → the platform's multi-key schema, and each row → the values to
 * send (normalised, then SHA-256-hex except MADID and EXTERN_ID). Header names are those of the
 * platform's documented names (docs/csv.md), case-insensitive, surrounding spaces ignored. A file with a single unnamed column
 * of e-mails or phone numbers is taken as a headerless list of that key.
 */
export const CONTACT_HEADERS: Readonly<Record<string, ContactKey | 'DOB'>> = {
  email: 'EMAIL',
  phone: 'PHONE',
  fn: 'FN',
  first_name: 'FN',
  ln: 'LN',
  last_name: 'LN',
  fi: 'FI',
  ct: 'CT',
  city: 'CT',
  st: 'ST',
  state: 'ST',
  zip: 'ZIP',
  country: 'COUNTRY',
  doby: 'DOBY',
  dobm: 'DOBM',
  dobd: 'DOBD',
  dob: 'DOB',
  gen: 'GEN',
  gender: 'GEN',
  madid: 'MADID',
  extern_id: 'EXTERN_ID',
};

export interface ContactLayout {
  /** the platform's `payload.schema` */
  schema: ContactKey[];
  /** for each CSV column, the key it feeds (`DOB` feeds three) */
  columns: Array<ContactKey | 'DOB'>;
  /** whether the first record is a header (false for a headerless single-column list) */
  hasHeader: boolean;
  /** the CSV's column names as written, for messages */
  names: string[];
}

export function contactLayout(firstRecord: string[]): ContactLayout {
  const names = firstRecord.map((cell) => cell.trim().toLowerCase());
  if (names.length === 1 && !((names[0] as string) in CONTACT_HEADERS)) {
    const only = firstRecord[0] ?? '';
    if ('value' in normalizeEmail(only)) return { schema: ['EMAIL'], columns: ['EMAIL'], hasHeader: false, names: ['email'] };
    if ('value' in normalizePhone(only)) return { schema: ['PHONE'], columns: ['PHONE'], hasHeader: false, names: ['phone'] };
  }
  const unknown = names.filter((name) => !(name in CONTACT_HEADERS));
  if (unknown.length === names.length) {
    throw new CsvProblem(`The CSV has no known column; name the columns with any of: ${Object.keys(CONTACT_HEADERS).join(', ')}.`);
  }
  if (unknown.length > 0) {
    throw new CsvProblem(
      `The CSV has unknown column(s): ${unknown.map((name) => name || '(empty)').join(', ')}; known columns are ${Object.keys(CONTACT_HEADERS).join(', ')}.`,
    );
  }
  const columns = names.map((name) => CONTACT_HEADERS[name] as ContactKey | 'DOB');
  const schema = columns.flatMap((column): ContactKey[] => (column === 'DOB' ? ['DOBY', 'DOBM', 'DOBD'] : [column]));
  const repeated = schema.find((key, index) => schema.indexOf(key) !== index);
  if (repeated) throw new CsvProblem(`The CSV gives ${repeated} twice (columns ${names.join(', ')}); keep one column per key.`);
  return { schema, columns, hasHeader: true, names };
}

/** An unusable row names the column and the reason, never the value (it is personal data). */
export type HashedRow = { values: string[] } | { invalid: { column: string; reason: string } };

const NOT_WHITESPACE = /\S/;
const isVisibleAscii = (code: number) => code > 32 && code < 127;
/** A cell with nothing but whitespace in it; a visible character at its start or middle says no at once. */
const isBlank = (cell: string) =>
  cell.length === 0 || (!isVisibleAscii(cell.charCodeAt(0)) && !isVisibleAscii(cell.charCodeAt(cell.length >> 1)) && !NOT_WHITESPACE.test(cell));

/**
 * One row's values in schema order; an empty cell stays empty (never hashed); any unusable value
 * rejects the row. `digest` is SHA-256 but for a check that only needs to know which rows are usable;
 * `repeated` remembers, for one read of a file, what the cells of the keys that repeat gave.
 */
export function hashContactRow(cells: string[], layout: ContactLayout, digest: (value: string) => string = sha256Hex, repeated?: RepeatedCells): HashedRow {
  const countryColumn = layout.columns.indexOf('COUNTRY');
  let context = NO_CONTEXT;
  if (countryColumn >= 0) {
    const country = normalizeCountry(cells[countryColumn] ?? '');
    if ('value' in country) context = { country: country.value.toUpperCase() as CountryCode };
  }
  const values: string[] = [];
  let filled = 0;
  for (let index = 0; index < layout.columns.length; index++) {
    const column = layout.columns[index] as ContactKey | 'DOB';
    const raw = cells[index] ?? '';
    if (isBlank(raw)) {
      if (column === 'DOB') values.push('', '', '');
      else values.push('');
      continue;
    }
    filled++;
    if (column === 'DOB') {
      const parts = splitDateOfBirth(raw);
      if ('invalid' in parts) return { invalid: { column: layout.names[index] as string, reason: parts.invalid } };
      values.push(digest(parts.DOBY), digest(parts.DOBM), digest(parts.DOBD));
      continue;
    }
    const remember = repeated !== undefined && RepeatedCells.repeats(column);
    const known = remember ? repeated.get(column, raw, context) : undefined;
    if (known !== undefined) {
      values.push(known);
      continue;
    }
    const hashed = HASHED_KEYS.has(column);
    if (hashed && raw.length >= 64) {
      const lowered = raw.trim().toLowerCase();
      if (isSha256Hex(lowered)) {
        values.push(lowered); // hashed by the client already
        continue;
      }
    }
    const normalized = normalizeValue(column, raw, context);
    if ('invalid' in normalized) return { invalid: { column: layout.names[index] as string, reason: normalized.invalid } };
    const value = hashed ? digest(normalized.value) : normalized.value;
    if (remember) repeated.set(column, raw, context, value);
    values.push(value);
  }
  if (filled === 0) return { invalid: { column: '*', reason: 'no value in the row' } };
  return { values };
}

const NO_CONTEXT: RowContext = Object.freeze({});
