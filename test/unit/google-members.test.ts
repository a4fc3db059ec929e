import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contactLayout } from '../../shared/audiences/contact-rows.ts';
import {
  checkGoogleContactFile,
  googleEmail,
  googleFamilyName,
  googleGivenName,
  googleLayout,
  googleMember,
  googlePhone,
} from '../../shared/audiences/google-members.ts';
import { normalizePhone } from '../../shared/audiences/normalize.ts';
import { sha256Hex } from '../../shared/audiences/sha256.ts';

/** Google's normalisation and hashing of contact rows, against the contract's worked examples and recorded ingest body. */
const fixture = (name: string) => JSON.parse(readFileSync(new URL(`../fixtures/datamanager/${name}`, import.meta.url), 'utf8'));

describe('Google’s normalisation', () => {
  it.each([
    [' Avery.Lindqvist@Example.COM ', '441c284757ae4b42276bcd97dfbbd8d1a8583d87587be1e7ca3345e27f2c9442'],
    ['Jordan.Mills+ads@GMail.com', '50f692a52778fa28671b8e17ab183974e68bdc3d3c7bb5fa5e9b0995eb2a5af4'],
    ['user.name+NYC@Example.com', 'f109a2a632fbcea5fc82049f50beed3d8621bf9034399f437fb622222acccdac'],
  ])('email %s', (raw, digest) => {
    expect(sha256Hex(googleEmail(raw) as string)).toBe(digest);
  });

  it.each([
    ['+1 (800) 555-0100', undefined, 'fb4f73a6ec5fdb7077d564cdd22c3554b43ce49168550c3b12c547b78c517b30'],
    ['030 1234567', 'DE', '74bd805bcc47f8603082430ca056311389e38b74fcdfbc32bcb5c6a9269ff3bf'],
    ['020 7946 0958', 'GB', 'f0bf0228144d9fe2bdf1da2d8ca698f17bf1410ee688b075c27062e47b6f0b6d'],
  ] as const)('phone %s (%s)', (raw, country, digest) => {
    expect(sha256Hex(googlePhone(raw, country ? { country } : {}) as string)).toBe(digest);
  });

  it('a number written with its + gives what the shared rules give, with the +', () => {
    const written = fc.stringMatching(/^ ?\+[0-9 ().-]{0,24}$/);
    fc.assert(
      fc.property(written, (raw) => {
        const shared = normalizePhone(raw, {});
        expect(googlePhone(raw, {})).toBe('value' in shared ? `+${shared.value}` : undefined);
      }),
      { numRuns: 2000 },
    );
  });

  it('names: a title and suffixes dropped, letters only', () => {
    expect(sha256Hex(googleGivenName('Dana') as string)).toBe('2c9e0a2585dc7406589a3724f0027811506e0f133726303a15d6779d532a2573');
    expect(sha256Hex(googleFamilyName('Moreno Jr.') as string)).toBe('1ede960ebbb5dadbac573858b2e33b37e7fee696f89515fa27080d47e120be83');
    expect(googleFamilyName("O'Brien")).toBe('obrien');
    expect(googleGivenName('Dr. Ana María')).toBe('anamaría');
    expect(googleFamilyName('King III PhD')).toBe('king');
    expect(googleGivenName('Mr')).toBe('mr'); // a title alone is the name
  });

  it('differs from the social platform where Google’s rules do: a phone keeps its +, gmail drops dots', () => {
    expect(normalizePhone('+1 (800) 555-0100')).toEqual({ value: '18005550100' });
    expect(googlePhone('+1 (800) 555-0100', {})).toBe('+18005550100');
    expect(googleEmail('a.b.c+x@googlemail.com')).toBe('abc@googlemail.com');
    expect(googleEmail('a.b.c+x@example.com')).toBe('a.b.c+x@example.com');
    expect(googleEmail('not an email')).toBeUndefined();
  });

  it('builds the recorded ingest body’s members from rows', () => {
    const layout = googleLayout(contactLayout(['email', 'phone', 'first_name', 'last_name', 'country', 'zip', 'city']));
    expect(layout.ignored).toEqual(['city']);
    const rows = [
      [' Avery.Lindqvist@Example.COM ', '+1 (800) 555-0100', '', '', '', '', 'Austin'],
      ['Jordan.Mills+ads@GMail.com', '', '', '', '', '', ''],
      ['dana.moreno@example.org', '', 'Dana', 'Moreno Jr.', 'us', '94043', ''],
    ];
    const members = rows.map((row) => googleMember(row, layout));
    const recorded = fixture('ingest-contacts-hex.json').request.body.audienceMembers as Array<{ userData: { userIdentifiers: unknown[] } }>;
    expect(members).toEqual(recorded.map((member) => ({ identifiers: member.userData.userIdentifiers })));
  });

  it('drops an unusable identifier, not the row; a row left with none is invalid', () => {
    const layout = googleLayout(contactLayout(['email', 'phone', 'first_name', 'last_name', 'country', 'zip']));
    expect(googleMember(['not-an-email', '+44 20 7946 0958', '', '', '', ''], layout)).toEqual({ identifiers: [{ phoneNumber: sha256Hex('+442079460958') }] });
    // a national number without a country, and a name without a zip, say nothing
    expect(googleMember(['', '030 1234567', 'Dana', 'Moreno', 'DE', ''], layout)).toEqual({ identifiers: [{ phoneNumber: sha256Hex('+49301234567') }] });
    expect(googleMember(['', '030 1234567', 'Dana', 'Moreno', '', '10115'], layout)).toMatchObject({
      invalid: expect.stringContaining('no_google_identifier'),
    });
    const digest = sha256Hex('avery.lindqvist@example.com');
    expect(googleMember([digest.toUpperCase(), '', '', '', '', ''], layout)).toEqual({ identifiers: [{ emailAddress: digest }] });
  });
});

describe('a whole contact file checked before anything is sent', () => {
  const bytes = async function* (content: string | Buffer) {
    yield Buffer.from(content);
  };
  const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('email\nana@example.com\n', 'utf16le')]);
  it.each([
    ['empty', '', /empty/],
    ['a header only', 'email,phone\n', /header but no data rows/],
    ['binary', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]), /binary|UTF-8/],
    ['UTF-16', utf16, /binary|UTF-8/],
    ['a quote never closed', 'email\n"ana@example.com\n', /quote/],
    ['a quote inside a field', 'email\nana"x@example.com\n', /quote/],
    ['an unknown column', 'shoe_size\n42\n', /no known column/],
    ['a repeated column', 'email,email\na@example.com,b@example.com\n', /twice/],
    ['a line over 64 KB', `email\n${'a'.repeat(70_000)}@example.com\n`, /longer than|goes on past/],
    ['no usable row', 'email\nnot-an-email\n\n', /None of the 1 rows can be used/],
  ])('%s is a CsvProblem', async (_name, content, why) => {
    await expect(checkGoogleContactFile(bytes(content))).rejects.toThrow(why);
  });

  it('counts the rows and those Google can match', async () => {
    expect(await checkGoogleContactFile(bytes('email,phone,country\nana@example.com,,\nnope,,\n,+1 800 555 0100,US\n'))).toEqual({
      dataRows: 3,
      usableRows: 2,
    });
  });
});
