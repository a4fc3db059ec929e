import { normalizeCountry, normalizeEmail, normalizePhone, type RowContext } from './normalize.ts';
import { contactLayout, type ContactLayout } from './contact-rows.ts';
import { CsvProblem, readCsv } from './csv-reader.ts';
import type { CountryCode } from 'libphonenumber-js/min';
import type { RepeatedCells } from './repeated-cells.ts';
import { isSha256Hex, sha256Hex } from './sha256.ts';
import type { UserIdentifier } from '../platforms/searchads/data-manager.ts';

/**
 * A contact row as a Customer Match member of the search-ads platform (docs/google-audiences.md,
 * "Normalisation"): Google's own rules, which differ from the social platform's where a shared
 * normaliser must not blur them. What agrees is shared (an email's shape, a phone's country code from
 * the row's country, the country code list); what differs is here:
 * - gmail.com and googlemail.com addresses lose every dot and any `+tag` of their local part;
 * - a phone is E.164 with its `+`;
 * - names drop a leading title (Mr., Dr., …) and trailing suffixes (Jr., PhD, III, …), then keep letters only;
 * - country and postal code are clear text inside one address, which counts only with both names.
 * A bad value drops its identifier, not the row; a row left with none is invalid. Values already
 * SHA-256 hex are passed through.
 */
export type GoogleMember = { identifiers: UserIdentifier[] } | { invalid: string };

const GMAIL_DOMAINS = new Set(['gmail.com', 'googlemail.com']);
const TITLES = new Set(['mr', 'mrs', 'ms', 'miss', 'dr']);
const SUFFIXES = new Set(['jr', 'sr', '2nd', '3rd', 'ii', 'iii', 'iv', 'v', 'vi', 'cpa', 'dc', 'dds', 'vm', 'jd', 'md', 'phd']);
const NOT_LETTER = /[^\p{L}]/gu;
const NOT_WORD = /[^\p{L}\p{N}]/gu;

/** An email as Google matches it: the shared shape, then gmail's dots and `+tag` dropped. */
export function googleEmail(raw: string): string | undefined {
  const normalized = normalizeEmail(raw);
  if ('invalid' in normalized) return undefined;
  const email = normalized.value;
  const at = email.lastIndexOf('@');
  const domain = email.slice(at + 1);
  if (!GMAIL_DOMAINS.has(domain)) return email;
  const local = email.slice(0, at).split('+')[0]?.replaceAll('.', '') ?? '';
  return local ? `${local}@${domain}` : undefined;
}

/** A phone in E.164, `+` and digits, with the row's country for a national number. */
export function googlePhone(raw: string, context: RowContext): string | undefined {
  const international = withPlus(raw);
  if (international !== undefined) return international;
  const normalized = normalizePhone(raw, context);
  return 'value' in normalized ? `+${normalized.value}` : undefined;
}

/**
 * The common case without the general rules: a number written with its `+`, spaces and punctuation
 * around its digits, no leading zero after the `+` (one with any other character, such as a letter or
 * an extension, takes the general rules). Undefined when it is not that case.
 */
function withPlus(raw: string): string | undefined {
  let start = 0;
  while (raw.charCodeAt(start) === 32) start++;
  if (raw.charCodeAt(start) !== 43) return undefined; // '+'
  let digits = '+';
  for (let at = start + 1; at < raw.length; at++) {
    const code = raw.charCodeAt(at);
    if (code >= 48 && code <= 57) digits += raw[at];
    else if (code !== 32 && code !== 40 && code !== 41 && code !== 45 && code !== 46) return undefined; // space ( ) - .
  }
  return digits.length >= 9 && digits.length <= 16 && digits.charCodeAt(1) !== 48 ? digits : undefined;
}

const words = (raw: string) =>
  raw
    .normalize('NFC')
    .toLowerCase()
    .split(/\s+/)
    .map((word) => word.replace(NOT_WORD, ''))
    .filter(Boolean);

/** A given name: lower case, a leading title dropped, letters only. */
export function googleGivenName(raw: string): string | undefined {
  const parts = words(raw);
  if (parts.length > 1 && TITLES.has(parts[0] as string)) parts.shift();
  return parts.join('').replace(NOT_LETTER, '') || undefined;
}

/** A family name: lower case, trailing suffixes dropped (repeatedly), letters only. */
export function googleFamilyName(raw: string): string | undefined {
  const parts = words(raw);
  while (parts.length > 1 && SUFFIXES.has(parts.at(-1) as string)) parts.pop();
  return parts.join('').replace(NOT_LETTER, '') || undefined;
}

/** Where each of the keys Google takes sits in the row (the social layout's columns; the others are ignored). */
export interface GoogleLayout {
  email: number;
  phone: number;
  givenName: number;
  familyName: number;
  country: number;
  zip: number;
  /** the file's columns Google does not take, named once for the job's warnings */
  ignored: string[];
}

export function googleLayout(layout: ContactLayout): GoogleLayout {
  const at = (key: string) => layout.columns.indexOf(key as never);
  const taken = new Set(['EMAIL', 'PHONE', 'FN', 'LN', 'COUNTRY', 'ZIP']);
  return {
    email: at('EMAIL'),
    phone: at('PHONE'),
    givenName: at('FN'),
    familyName: at('LN'),
    country: at('COUNTRY'),
    zip: at('ZIP'),
    ignored: layout.columns.flatMap((column, index) => (taken.has(column) ? [] : [layout.names[index] as string])),
  };
}

const cell = (cells: readonly string[], index: number) => (index >= 0 ? (cells[index] ?? '').trim() : '');
const hashed = (value: string) => (value.length === 64 && isSha256Hex(value.toLowerCase()) ? value.toLowerCase() : undefined);

const NO_CONTEXT: RowContext = Object.freeze({});

/**
 * One row as a member's identifiers (email, phone, then the address), hashed; or why it has none.
 * `repeated` remembers, for one read of a file, what the cells that repeat down a list (country and
 * names) gave: their digests are not worked out again (see RepeatedCells).
 */
export function googleMember(
  cells: readonly string[],
  layout: GoogleLayout,
  digest: (value: string) => string = sha256Hex,
  repeated?: RepeatedCells,
): GoogleMember {
  const identifiers: UserIdentifier[] = [];
  const countryCell = cell(cells, layout.country);
  let regionCode = countryCell ? repeated?.get('COUNTRY', countryCell, NO_CONTEXT) : '';
  if (regionCode === undefined) {
    const country = normalizeCountry(countryCell);
    regionCode = 'value' in country ? country.value.toUpperCase() : '';
    repeated?.set('COUNTRY', countryCell, NO_CONTEXT, regionCode);
  }
  const context: RowContext = regionCode ? { country: regionCode as CountryCode } : NO_CONTEXT;

  const emailCell = cell(cells, layout.email);
  if (emailCell) {
    const already = hashed(emailCell);
    const email = already ?? googleEmail(emailCell);
    if (email) identifiers.push({ emailAddress: already ?? digest(email) });
  }
  const phoneCell = cell(cells, layout.phone);
  if (phoneCell) {
    const already = hashed(phoneCell);
    const phone = already ?? googlePhone(phoneCell, context);
    if (phone) identifiers.push({ phoneNumber: already ?? digest(phone) });
  }
  const zip = cell(cells, layout.zip);
  if (zip && regionCode) {
    const givenName = nameDigest(cell(cells, layout.givenName), 'FN', digest, repeated);
    const familyName = givenName ? nameDigest(cell(cells, layout.familyName), 'LN', digest, repeated) : '';
    if (givenName && familyName) identifiers.push({ address: { givenName, familyName, regionCode, postalCode: zip } });
  }
  return identifiers.length > 0 ? { identifiers } : { invalid: 'no_google_identifier: no usable email, phone, or name with country and zip' };
}

/** A name's digest ('' when it has no letters): remembered by the cell as written. */
function nameDigest(raw: string, key: 'FN' | 'LN', digest: (value: string) => string, repeated?: RepeatedCells): string {
  if (!raw) return '';
  const known = repeated?.get(key, raw, NO_CONTEXT);
  if (known !== undefined) return known;
  const name = hashed(raw) ?? (key === 'FN' ? googleGivenName(raw) : googleFamilyName(raw));
  const value = name === undefined ? '' : name.length === 64 && hashed(raw) ? name : digest(name);
  repeated?.set(key, raw, NO_CONTEXT, value);
  return value;
}

/**
 * A whole contact file read as the search-ads job will read it, sending nothing: every problem with
 * the file itself (empty, header only, binary, not UTF-8, a quote out of place, unknown or repeated
 * columns, a line over 64 KB) and a file of which no row can be used are a CsvProblem (400), found
 * before any list is made (docs/google-audiences.md, "Refusals").
 */
export async function checkGoogleContactFile(bytes: AsyncIterable<Uint8Array>): Promise<{ dataRows: number; usableRows: number }> {
  let layout: GoogleLayout | undefined;
  let dataRows = 0;
  let usableRows = 0;
  const plain = (value: string) => value; // which rows are usable needs no hash
  for await (const step of readCsv(bytes)) {
    for (const record of step.records) {
      if (!layout) {
        const read = contactLayout(record.cells);
        layout = googleLayout(read);
        if (read.hasHeader) continue;
      }
      dataRows++;
      if ('identifiers' in googleMember(record.cells, layout, plain)) usableRows++;
    }
  }
  if (!layout) throw new CsvProblem('The file is empty; upload a CSV with a header row and one row per contact.');
  if (dataRows === 0) throw new CsvProblem('The file has a header but no data rows.');
  if (usableRows === 0)
    throw new CsvProblem(`None of the ${dataRows} rows can be used: Google needs an email, a phone, or first and last name with country and zip.`);
  return { dataRows, usableRows };
}
