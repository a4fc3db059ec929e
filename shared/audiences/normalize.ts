import { getCountries, getCountryCallingCode, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/min';
import { clock } from '../core/clock.ts';
import { US_STATE_ABBREVIATIONS, US_STATE_CODES } from './us-states.ts';
import type { ContactKey } from '../platforms/social/contact-keys.ts';

/**
 * Per-key normalisation of the social platform's customer-file keys (docs/platforms.md, "Social"), as
 * pure functions: a value in, the normalised value out, or a reason it cannot be used. Hashing is
 * separate (`sha256Hex`); keys that are never hashed say so in `HASHED_KEYS`.
 */

export const HASHED_KEYS: ReadonlySet<ContactKey> = new Set(['EMAIL', 'PHONE', 'GEN', 'DOBY', 'DOBM', 'DOBD', 'FN', 'LN', 'FI', 'CT', 'ST', 'ZIP', 'COUNTRY']);

export type Normalized = { value: string } | { invalid: string };

/** What the row says about itself, for the keys whose rules depend on the country. */
export interface RowContext {
  /** ISO alpha-2, upper case, when the row has a valid country */
  country?: CountryCode;
}

export { isSha256Hex, sha256Hex } from './sha256.ts';

const countries = new Set<string>(getCountries());
const ok = (value: string): Normalized => ({ value });
const bad = (invalid: string): Normalized => ({ invalid });
const WHITESPACE = /\s/;

/**
 * Whether a value reads as `local@domain.tld`, as /^[^\s@]+@[^\s@]+\.[^\s@]+$/ says (no space, one
 * `@` with something before it, a dot after it with something on both sides), without running the
 * regular expression: this check runs once a row on lists of millions of rows.
 */
function isEmailAddress(email: string): boolean {
  const at = email.indexOf('@');
  if (at <= 0 || email.indexOf('@', at + 1) >= 0) return false;
  const dot = email.indexOf('.', at + 2);
  return dot >= 0 && dot <= email.length - 2 && !WHITESPACE.test(email);
}

export function normalizeEmail(raw: string): Normalized {
  const email = raw.toLowerCase().trim(); // lower case first: it is faster on the unflattened slice a CSV cell is
  return isEmailAddress(email) ? ok(email) : bad('EMAIL: not an email address');
}

const NON_DIGITS = /\D/g;
const withoutLeadingZeros = (digits: string) => (digits.charCodeAt(0) === 48 ? digits.replace(/^0+/, '') : digits);

/**
 * Digits with the country calling code, no `+`, no leading zeros. A number written with `+` or `00`
 * carries its code; a national number gets the code of the row's country (its trunk prefix dropped);
 * a number of 11 or more digits with neither is taken to carry its code already.
 */
export function normalizePhone(raw: string, context: RowContext = {}): Normalized {
  const trimmed = raw.trim();
  const digits = trimmed.replace(NON_DIGITS, '');
  if (digits.length === 0) return bad('PHONE: no digits');
  let international: string | undefined;
  if (trimmed.startsWith('+') || digits.startsWith('00')) {
    international = withoutLeadingZeros(digits);
  } else if (context.country) {
    const parsed = parsePhoneNumberFromString(trimmed, context.country);
    international = parsed ? parsed.number.slice(1) : `${getCountryCallingCode(context.country)}${withoutLeadingZeros(digits)}`;
  } else if (withoutLeadingZeros(digits).length >= 11) {
    international = withoutLeadingZeros(digits);
  } else {
    return bad('PHONE: no country calling code (write +<code> or add a country column)');
  }
  return international.length >= 8 && international.length <= 15 ? ok(international) : bad('PHONE: not a phone number');
}

export function normalizeGender(raw: string): Normalized {
  const value = raw.trim().toLowerCase();
  if (value === 'm' || value === 'male') return ok('m');
  if (value === 'f' || value === 'female') return ok('f');
  return bad('GEN: must be m, f, male or female');
}

export function normalizeBirthYear(raw: string, now = clock.date()): Normalized {
  const value = raw.trim();
  const year = Number(value);
  return /^\d{4}$/.test(value) && year >= 1900 && year <= now.getUTCFullYear() ? ok(value) : bad('DOBY: must be a year from 1900 to this year');
}

function twoDigits(raw: string, max: number, key: string): Normalized {
  const value = raw.trim();
  const number = Number(value);
  return /^\d{1,2}$/.test(value) && number >= 1 && number <= max ? ok(String(number).padStart(2, '0')) : bad(`${key}: must be 1 to ${max}`);
}

export const normalizeBirthMonth = (raw: string) => twoDigits(raw, 12, 'DOBM');
export const normalizeBirthDay = (raw: string) => twoDigits(raw, 31, 'DOBD');

/** A full date of birth, YYYY-MM-DD (or YYYYMMDD), split into DOBY, DOBM and DOBD. */
export function splitDateOfBirth(raw: string, now = clock.date()): { DOBY: string; DOBM: string; DOBD: string } | { invalid: string } {
  const match = raw.trim().match(/^(\d{4})-?(\d{2})-?(\d{2})$/);
  if (!match) return { invalid: 'DOB: must be a date in YYYY-MM-DD format' };
  const [, year, month, day] = match as unknown as [string, string, string, string];
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  if (date.getUTCMonth() !== Number(month) - 1 || date.getUTCDate() !== Number(day)) return { invalid: 'DOB: not a real date' };
  const normalizedYear = normalizeBirthYear(year, now);
  if ('invalid' in normalizedYear) return { invalid: 'DOB: the year must be from 1900 to this year' };
  return { DOBY: year, DOBM: month, DOBD: day };
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: the range is every Latin-1 character, control characters included
const BEYOND_LATIN1 = /[^\u0000-\u00ff]/;
/** after lower-casing, what is not a letter among the Latin-1 characters (\p{L} there: a–z ª µ º ß–ö ø–ÿ) */
const LATIN1_NON_LETTER = /[^a-z\u00aa\u00b5\u00ba\u00df-\u00f6\u00f8-\u00ff]/g;

/**
 * NFC, lower case, letters (\p{L}) only. Most names are Latin-1 text, which NFC leaves as it is and
 * whose letters a plain character class lists: that path skips ICU and the Unicode-aware expression.
 */
function nameLetters(raw: string): string {
  if (BEYOND_LATIN1.test(raw))
    return raw
      .normalize('NFC')
      .toLowerCase()
      .replace(/[^\p{L}]/gu, '');
  const lower = raw.toLowerCase();
  LATIN1_NON_LETTER.lastIndex = 0;
  return LATIN1_NON_LETTER.test(lower) ? lower.replace(LATIN1_NON_LETTER, '') : lower;
}

/** Names: NFC, lower case, letters only (accents and non-Latin letters kept, as the platform allows). */
export function normalizeName(raw: string, key: 'FN' | 'LN'): Normalized {
  const value = nameLetters(raw);
  return value ? ok(value) : bad(`${key}: no letters`);
}

export function normalizeFirstInitial(raw: string): Normalized {
  const value = nameLetters(raw);
  return value ? ok([...value][0] as string) : bad('FI: no letter');
}

/** a–z only: accents folded (Zürich → zurich), everything else dropped */
const latinLetters = (raw: string) =>
  raw
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/[^a-z]/g, '');

export function normalizeCity(raw: string): Normalized {
  const value = latinLetters(raw);
  return value ? ok(value) : bad('CT: no letters a–z');
}

/** US states become their 2-letter code (California → ca); elsewhere the name in a–z. */
export function normalizeState(raw: string, context: RowContext = {}): Normalized {
  const value = latinLetters(raw);
  if (!value) return bad('ST: no letters a–z');
  const usCode = US_STATE_CODES[value];
  if (usCode && (context.country === undefined || context.country === 'US')) return ok(usCode);
  if (context.country === 'US' && !US_STATE_ABBREVIATIONS.has(value)) return bad('ST: not a US state');
  return ok(value);
}

const isDigit = (value: string, at: number) => value.charCodeAt(at) >= 48 && value.charCodeAt(at) <= 57;
const startsWithFiveDigits = (value: string) => isDigit(value, 0) && isDigit(value, 1) && isDigit(value, 2) && isDigit(value, 3) && isDigit(value, 4);
/** 12345 or 12345-6789 */
const isUsZip = (value: string) =>
  startsWithFiveDigits(value) &&
  (value.length === 5 || (value.length === 10 && value[5] === '-' && isDigit(value, 6) && isDigit(value, 7) && isDigit(value, 8) && isDigit(value, 9)));

/** Lower case without spaces; US: the first five digits; UK: area, district and sector (SW1A 1AA → sw1a1). */
export function normalizeZip(raw: string, context: RowContext = {}): Normalized {
  const lower = raw.toLowerCase();
  const value = WHITESPACE.test(lower) ? lower.replace(/\s+/g, '') : lower;
  if (!value) return bad('ZIP: empty');
  if (context.country === 'US' || (context.country === undefined && isUsZip(value))) {
    return startsWithFiveDigits(value) ? ok(value.slice(0, 5)) : bad('ZIP: a US zip code starts with five digits');
  }
  if (context.country === 'GB') {
    const uk = raw
      .toLowerCase()
      .trim()
      .match(/^([a-z]{1,2}\d[a-z\d]?)\s*(\d)[a-z]{2}$/);
    return uk ? ok(`${uk[1]}${uk[2]}`) : bad('ZIP: not a UK postcode');
  }
  return /^[a-z0-9-]+$/.test(value) ? ok(value) : bad('ZIP: only letters, digits and -');
}

export function normalizeCountry(raw: string): Normalized {
  const value = raw.trim().toUpperCase();
  return countries.has(value) ? ok(value.toLowerCase()) : bad('COUNTRY: must be an ISO 3166-1 alpha-2 code');
}

/** Mobile advertiser ids (IDFA, GAID): lower case, hyphens kept; never hashed. */
export function normalizeMadid(raw: string): Normalized {
  const value = raw.trim().toLowerCase();
  return /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/.test(value) ? ok(value) : bad('MADID: not a mobile advertiser id');
}

/** The advertiser's own id, sent as it is (trimmed); never hashed. */
export function normalizeExternId(raw: string): Normalized {
  const value = raw.trim();
  return value.length > 0 && value.length <= 256 ? ok(value) : bad('EXTERN_ID: 1 to 256 characters');
}

export function normalizeValue(key: ContactKey, raw: string, context: RowContext): Normalized {
  switch (key) {
    case 'EMAIL':
      return normalizeEmail(raw);
    case 'PHONE':
      return normalizePhone(raw, context);
    case 'GEN':
      return normalizeGender(raw);
    case 'DOBY':
      return normalizeBirthYear(raw);
    case 'DOBM':
      return normalizeBirthMonth(raw);
    case 'DOBD':
      return normalizeBirthDay(raw);
    case 'FN':
    case 'LN':
      return normalizeName(raw, key);
    case 'FI':
      return normalizeFirstInitial(raw);
    case 'CT':
      return normalizeCity(raw);
    case 'ST':
      return normalizeState(raw, context);
    case 'ZIP':
      return normalizeZip(raw, context);
    case 'COUNTRY':
      return normalizeCountry(raw);
    case 'MADID':
      return normalizeMadid(raw);
    case 'EXTERN_ID':
      return normalizeExternId(raw);
  }
}
