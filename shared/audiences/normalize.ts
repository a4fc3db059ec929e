import { getCountries, getCountryCallingCode, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/min';
import { clock } from '../clock.ts';
import { US_STATE_ABBREVIATIONS, US_STATE_CODES } from './us-states.ts';

/**
 * Per-key normalisation of the social platform's customer-file keys (contract social.md §5.5), as
 * pure functions: a value in, the normalised value out, or a reason it cannot be used. Hashing is
 * separate (`sha256Hex`); keys that are never hashed say so in `HASHED_KEYS`.
 */
export type ContactKey =
  | 'EMAIL'
  | 'PHONE'
  | 'GEN'
  | 'DOBY'
  | 'DOBM'
  | 'DOBD'
  | 'FN'
  | 'LN'
  | 'FI'
  | 'CT'
  | 'ST'
  | 'ZIP'
  | 'COUNTRY'
  | 'MADID'
  | 'EXTERN_ID';

export const HASHED_KEYS: ReadonlySet<ContactKey> = new Set(['EMAIL', 'PHONE', 'GEN', 'DOBY', 'DOBM', 'DOBD', 'FN', 'LN', 'FI', 'CT', 'ST', 'ZIP', 'COUNTRY']);

export type Normalized = { value: string } | { invalid: string };

/** What the row says about itself, for the keys whose rules depend on the country. */
export interface RowContext {
  /** ISO alpha-2, upper case, when the row has a valid country */
  country?: CountryCode;
}

export { isSha256Hex, sha256Hex } from './sha256.ts';

const countries = new Set<string>(getCountries());
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const ok = (value: string): Normalized => ({ value });
const bad = (invalid: string): Normalized => ({ invalid });

export function normalizeEmail(raw: string): Normalized {
  const email = raw.trim().toLowerCase();
  return EMAIL.test(email) ? ok(email) : bad('EMAIL: not an email address');
}

/**
 * Digits with the country calling code, no `+`, no leading zeros. A number written with `+` or `00`
 * carries its code; a national number gets the code of the row's country (its trunk prefix dropped);
 * a number of 11 or more digits with neither is taken to carry its code already.
 */
export function normalizePhone(raw: string, context: RowContext = {}): Normalized {
  const trimmed = raw.trim();
  const digits = trimmed.replace(/\D/g, '');
  if (digits.length === 0) return bad('PHONE: no digits');
  let international: string | undefined;
  if (trimmed.startsWith('+') || digits.startsWith('00')) {
    international = digits.replace(/^0+/, '');
  } else if (context.country) {
    const parsed = parsePhoneNumberFromString(trimmed, context.country);
    international = parsed ? parsed.number.slice(1) : `${getCountryCallingCode(context.country)}${digits.replace(/^0+/, '')}`;
  } else if (digits.replace(/^0+/, '').length >= 11) {
    international = digits.replace(/^0+/, '');
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

/** Names: NFC, lower case, letters only (accents and non-Latin letters kept, as the platform allows). */
export function normalizeName(raw: string, key: 'FN' | 'LN'): Normalized {
  const value = raw.normalize('NFC').toLowerCase().replace(/[^\p{L}]/gu, '');
  return value ? ok(value) : bad(`${key}: no letters`);
}

export function normalizeFirstInitial(raw: string): Normalized {
  const value = raw.normalize('NFC').toLowerCase().replace(/[^\p{L}]/gu, '');
  return value ? ok([...value][0] as string) : bad('FI: no letter');
}

/** a–z only: accents folded (Zürich → zurich), everything else dropped */
const latinLetters = (raw: string) => raw.normalize('NFD').replace(/\p{Diacritic}/gu, '').toLowerCase().replace(/[^a-z]/g, '');

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

/** Lower case without spaces; US: the first five digits; UK: area, district and sector (SW1A 1AA → sw1a1). */
export function normalizeZip(raw: string, context: RowContext = {}): Normalized {
  const value = raw.toLowerCase().replace(/\s+/g, '');
  if (!value) return bad('ZIP: empty');
  if (context.country === 'US' || (context.country === undefined && /^\d{5}(-\d{4})?$/.test(value))) {
    return /^\d{5}/.test(value) ? ok(value.slice(0, 5)) : bad('ZIP: a US zip code starts with five digits');
  }
  if (context.country === 'GB') {
    const uk = raw.toLowerCase().trim().match(/^([a-z]{1,2}\d[a-z\d]?)\s*(\d)[a-z]{2}$/);
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
