import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contactLayout, hashContactRow } from '../../shared/audiences/contact-rows.ts';
import {
  normalizeBirthDay,
  normalizeBirthMonth,
  normalizeBirthYear,
  normalizeCity,
  normalizeCountry,
  normalizeEmail,
  normalizeExternId,
  normalizeFirstInitial,
  normalizeGender,
  normalizeMadid,
  normalizeName,
  normalizePhone,
  normalizeState,
  normalizeZip,
  sha256Hex,
  splitDateOfBirth,
} from '../../shared/audiences/normalize.ts';

/** Golden vectors: the platform's worked examples (docs/csv.md), digests precomputed there. */
const value = (normalized: { value: string } | { invalid: string }) => ('value' in normalized ? normalized.value : `invalid: ${normalized.invalid}`);

describe('contract worked examples', () => {
  it.each([
    ['EMAIL', () => normalizeEmail('mary@example.com'), 'mary@example.com', 'f1904cf1a9d73a55fa5de0ac823c4403ded71afd4c3248d00bdcd0866552bb79'],
    ['PHONE', () => normalizePhone('+1 (555) 987-6543'), '15559876543', '1ef970831d7963307784fa8688e8fce101a15685d62aa765fed23f3a2c576a4e'],
    ['EMAIL', () => normalizeEmail('  John.Doe@Example.COM '), 'john.doe@example.com', '836f82db99121b3481011f16b49dfa5fbc714a0d1b1b9f784a1ebbbf5b39577f'],
    ['PHONE', () => normalizePhone('0044 20 7946 0958'), '442079460958', '35e206e5dec4c89b9e8b71b8c32724a5bb518483ac5a20c6617d738375b3b823'],
    ['FN', () => normalizeName('Mary-Ann', 'FN'), 'maryann', '16b3f07f0ec2f9dd127b71dc2e6c791b7d93116a1c3bc99d057eaa7a8a077e73'],
    ['FN', () => normalizeName('José', 'FN'), 'josé', 'd994e1d001886fe5b45b1267bd1fa2b752ac50742579bd3dad7b2a2aa0ed6866'],
    ['FN (decomposed input)', () => normalizeName('Jose\u0301', 'FN'), 'josé', 'd994e1d001886fe5b45b1267bd1fa2b752ac50742579bd3dad7b2a2aa0ed6866'],
    ['LN', () => normalizeName("O'Brien", 'LN'), 'obrien', 'b4cb6cb33fe4b865868de825023a1e2790dc12ac01ecc8d7c5afe8254071c8ba'],
    ['FI', () => normalizeFirstInitial('M'), 'm', '62c66a7a5dd70c3146618063c344e531e6d4b59e379808443ce962b3abd63c5a'],
    ['CT', () => normalizeCity('Menlo Park'), 'menlopark', '0007a3d64c01e23d5075203c5977c14e4f7e01a3fc570686fcc50b5e1dd42685'],
    ['ST', () => normalizeState('California'), 'ca', '6959097001d10501ac7d54c0bdb8db61420f658f2922cc26e46d536119a31126'],
    ['ZIP', () => normalizeZip('94025-1234'), '94025', 'b9a9cf3cd3723a2e91b7c23ecf68456e872b6e5d86e5cab7f3d45a7302da32c7'],
    ['COUNTRY', () => normalizeCountry('US'), 'us', '79adb2a2fce5c6ba215fe5f27f532d4e7edbac4b6a5e09e1ef3a08084a904621'],
    ['DOBY', () => normalizeBirthYear('1985'), '1985', '78e370b587b145920213731b7c7c725e512b3b6577c51c800218a7c764c532ae'],
    ['DOBM', () => normalizeBirthMonth('7'), '07', '19b100ab7725c612f3d80ff203ca53cea5cadaafae3bf0f88f0fb4089fe08815'],
    ['DOBD', () => normalizeBirthDay('4'), '04', '6cd5b6e51936a442b973660c21553dd22bd72ddc8751132a943475288113b4c0'],
    ['GEN', () => normalizeGender('Female'), 'f', '252f10c83610ebca1a059c0bae8255eba2f95be4d1d7bcfa89d7248a82d9f111'],
  ])('%s', (_key, normalize, normalized, digest) => {
    expect(value(normalize())).toBe(normalized);
    expect(sha256Hex(normalized)).toBe(digest);
  });

  it('MADID and EXTERN_ID are normalised but never hashed', () => {
    expect(value(normalizeMadid('6D92078A-8246-4BA4-AE5B-76104861E7DC'))).toBe('6d92078a-8246-4ba4-ae5b-76104861e7dc');
    expect(value(normalizeExternId('CUST-000123'))).toBe('CUST-000123');
  });
});

describe('every key', () => {
  it.each([
    // email
    [() => normalizeEmail('Anna@Example.ORG'), 'anna@example.org'],
    [() => normalizeEmail('not-an-email'), 'invalid: EMAIL: not an email address'],
    // phone: international forms, national with the row's country, trunk prefix dropped
    [() => normalizePhone('+44 20 7946 0958'), '442079460958'],
    [() => normalizePhone('020 7946 0958', { country: 'GB' }), '442079460958'],
    [() => normalizePhone('(555) 987-6543', { country: 'US' }), '15559876543'],
    [() => normalizePhone('1-555-987-6543', { country: 'US' }), '15559876543'],
    [() => normalizePhone('06 12 34 56 78', { country: 'FR' }), '33612345678'],
    [() => normalizePhone('15559876543'), '15559876543'],
    [() => normalizePhone('555 987 6543'), 'invalid: PHONE: no country calling code (write +<code> or add a country column)'],
    [() => normalizePhone('call me'), 'invalid: PHONE: no digits'],
    [() => normalizePhone('+12'), 'invalid: PHONE: not a phone number'],
    // gender
    [() => normalizeGender('M'), 'm'],
    [() => normalizeGender(' male '), 'm'],
    [() => normalizeGender('x'), 'invalid: GEN: must be m, f, male or female'],
    // dates
    [() => normalizeBirthYear('1899'), 'invalid: DOBY: must be a year from 1900 to this year'],
    [() => normalizeBirthMonth('13'), 'invalid: DOBM: must be 1 to 12'],
    [() => normalizeBirthDay('09'), '09'],
    [() => normalizeBirthDay('32'), 'invalid: DOBD: must be 1 to 31'],
    // names, initials, cities, states
    [() => normalizeName('  Zoë  van der Berg ', 'LN'), 'zoëvanderberg'],
    [() => normalizeName('Дмитрий', 'FN'), 'дмитрий'],
    [() => normalizeName('123', 'FN'), 'invalid: FN: no letters'],
    [() => normalizeFirstInitial('élodie'), 'é'],
    [() => normalizeCity('Zürich'), 'zurich'],
    [() => normalizeCity("St. John's"), 'stjohns'],
    [() => normalizeState('CA'), 'ca'],
    [() => normalizeState('New York', { country: 'US' }), 'ny'],
    [() => normalizeState('Île-de-France', { country: 'FR' }), 'iledefrance'],
    [() => normalizeState('Narnia', { country: 'US' }), 'invalid: ST: not a US state'],
    // zip codes
    [() => normalizeZip('94025'), '94025'],
    [() => normalizeZip('94025', { country: 'US' }), '94025'],
    [() => normalizeZip('SW1A 1AA', { country: 'GB' }), 'sw1a1'],
    [() => normalizeZip('M1 1AE', { country: 'GB' }), 'm11'],
    [() => normalizeZip('75001', { country: 'FR' }), '75001'],
    [() => normalizeZip('K1A 0B1', { country: 'CA' }), 'k1a0b1'],
    // country and ids
    [() => normalizeCountry(' gb '), 'gb'],
    [() => normalizeCountry('United States'), 'invalid: COUNTRY: must be an ISO 3166-1 alpha-2 code'],
    [() => normalizeMadid('not-an-id'), 'invalid: MADID: not a mobile advertiser id'],
  ])('%#', (normalize, expected) => {
    expect(value(normalize())).toBe(expected);
  });

  it('splits a date of birth', () => {
    expect(splitDateOfBirth('1985-07-04')).toEqual({ DOBY: '1985', DOBM: '07', DOBD: '04' });
    expect(splitDateOfBirth('19850704')).toEqual({ DOBY: '1985', DOBM: '07', DOBD: '04' });
    expect(splitDateOfBirth('1985-02-30')).toEqual({ invalid: 'DOB: not a real date' });
    expect(splitDateOfBirth('04/07/1985')).toEqual({ invalid: 'DOB: must be a date in YYYY-MM-DD format' });
  });
});

describe('rows', () => {
  it('maps headers case-insensitively and hashes each cell in schema order', () => {
    const layout = contactLayout([' Email ', 'PHONE', 'first_name', 'ln', 'zip', 'country', 'dob', 'madid', 'extern_id']);
    expect(layout.schema).toEqual(['EMAIL', 'PHONE', 'FN', 'LN', 'ZIP', 'COUNTRY', 'DOBY', 'DOBM', 'DOBD', 'MADID', 'EXTERN_ID']);
    const row = hashContactRow(
      ['Mary@Example.com', '(555) 987-6543', 'Mary-Ann', "O'Brien", '94025-1234', 'US', '1985-07-04', '6D92078A-8246-4BA4-AE5B-76104861E7DC', 'CUST-1'],
      layout,
    );
    expect(row).toEqual({
      values: [
        'f1904cf1a9d73a55fa5de0ac823c4403ded71afd4c3248d00bdcd0866552bb79',
        '1ef970831d7963307784fa8688e8fce101a15685d62aa765fed23f3a2c576a4e',
        '16b3f07f0ec2f9dd127b71dc2e6c791b7d93116a1c3bc99d057eaa7a8a077e73',
        'b4cb6cb33fe4b865868de825023a1e2790dc12ac01ecc8d7c5afe8254071c8ba',
        'b9a9cf3cd3723a2e91b7c23ecf68456e872b6e5d86e5cab7f3d45a7302da32c7',
        '79adb2a2fce5c6ba215fe5f27f532d4e7edbac4b6a5e09e1ef3a08084a904621',
        '78e370b587b145920213731b7c7c725e512b3b6577c51c800218a7c764c532ae',
        '19b100ab7725c612f3d80ff203ca53cea5cadaafae3bf0f88f0fb4089fe08815',
        '6cd5b6e51936a442b973660c21553dd22bd72ddc8751132a943475288113b4c0',
        '6d92078a-8246-4ba4-ae5b-76104861e7dc',
        'CUST-1',
      ],
    });
  });

  it('passes values that are already SHA-256 hex through, lower-cased, and leaves empty cells empty', () => {
    const layout = contactLayout(['email', 'phone']);
    const digest = 'F1904CF1A9D73A55FA5DE0AC823C4403DED71AFD4C3248D00BDCD0866552BB79';
    expect(hashContactRow([digest, ''], layout)).toEqual({ values: [digest.toLowerCase(), ''] });
  });

  it('rejects a row with an unusable value, naming the column and the reason, never the value', () => {
    const layout = contactLayout(['email', 'phone']);
    expect(hashContactRow(['mary@example.com', '555 987 6543'], layout)).toEqual({
      invalid: { column: 'phone', reason: 'PHONE: no country calling code (write +<code> or add a country column)' },
    });
    expect(hashContactRow(['', ' '], layout)).toEqual({ invalid: { column: '*', reason: 'no value in the row' } });
  });

  it('reads a headerless single column of e-mails or phones', () => {
    expect(contactLayout(['mary@example.com'])).toMatchObject({ schema: ['EMAIL'], columns: ['EMAIL'], hasHeader: false });
    expect(contactLayout(['+1 555 987 6543'])).toMatchObject({ schema: ['PHONE'], columns: ['PHONE'], hasHeader: false });
  });

  it('refuses unknown, missing and repeated columns', () => {
    expect(() => contactLayout(['name', 'mail'])).toThrow(/no known column/);
    expect(() => contactLayout(['email', 'emial'])).toThrow(/unknown column\(s\): emial/);
    expect(() => contactLayout(['email', 'first_name', 'fn'])).toThrow(/FN twice/);
    expect(() => contactLayout(['dob', 'doby'])).toThrow(/DOBY twice/);
  });
});

/**
 * The rules as the contract words them, in the plainest code: the normalisers take faster paths
 * (no regular expression for an e-mail, no ICU for Latin-1 names), and must give exactly this.
 */
const contractRules = {
  email: (raw: string) => {
    const email = raw.trim().toLowerCase();
    return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) ? email : 'invalid: EMAIL: not an email address';
  },
  name: (raw: string) =>
    raw
      .normalize('NFC')
      .toLowerCase()
      .replace(/[^\p{L}]/gu, '') || 'invalid: FN: no letters',
  zip: (raw: string) => {
    const zip = raw.toLowerCase().replace(/\s+/g, '');
    if (!zip) return 'invalid: ZIP: empty';
    if (/^\d{5}(-\d{4})?$/.test(zip)) return zip.slice(0, 5);
    return /^[a-z0-9-]+$/.test(zip) ? zip : 'invalid: ZIP: only letters, digits and -';
  },
};

/** Text made of the characters each rule turns on: Latin-1 and beyond, combining marks, every kind of space. */
const tricky = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        'a',
        'Z',
        '@',
        '.',
        '-',
        "'",
        '0',
        '9',
        ' ',
        '\t',
        '\u00a0',
        '\u2003',
        '\ufeff',
        '\n',
        'é',
        'Ö',
        'ß',
        'ÿ',
        '×',
        '÷',
        'ª',
        'µ',
        'º',
        '\u0301',
        'İ',
        'Σ',
        'Д',
        '😀',
        '·',
      ),
      fc.string({ unit: 'binary', maxLength: 2 }),
    ),
    { maxLength: 24 },
  )
  .map((parts) => parts.join(''));
const emailLike = fc.tuple(tricky, tricky, tricky).map(([local, domain, tld]) => `${local}@${domain}.${tld}`);
const zipCharacter = fc.oneof({ arbitrary: fc.constantFrom('0', '4', '9'), weight: 6 }, { arbitrary: fc.constantFrom('-', ' ', 'a', '/', '٣'), weight: 1 });
const zipLike = fc
  .tuple(fc.array(zipCharacter, { minLength: 4, maxLength: 6 }), fc.constantFrom('-', 'x', ' ', ''), fc.array(zipCharacter, { maxLength: 5 }))
  .map(([first, separator, second]) => `${first.join('')}${separator}${second.join('')}`);

describe('the normalisers’ fast paths', () => {
  it('accept and produce exactly what the contract’s rules do, for any text', () => {
    fc.assert(
      fc.property(fc.oneof(tricky, emailLike, zipLike), (raw) => {
        expect(value(normalizeEmail(raw))).toBe(contractRules.email(raw));
        expect(value(normalizeName(raw, 'FN'))).toBe(contractRules.name(raw));
        expect(value(normalizeZip(raw))).toBe(contractRules.zip(raw));
      }),
      { numRuns: 5000 },
    );
  });

  it('take a cell of nothing but whitespace of any kind as empty', () => {
    const layout = contactLayout(['email', 'phone']);
    fc.assert(
      fc.property(fc.array(fc.constantFrom(' ', '\t', '\u00a0', '\u2003', '\u3000', '\ufeff', '\u2028'), { maxLength: 6 }), (spaces) => {
        expect(hashContactRow([spaces.join(''), '+44 20 7946 0958'], layout)).toEqual({ values: ['', sha256Hex('442079460958')] });
      }),
    );
  });
});
