import { describe, expect, it } from 'vitest';
import { readMultipartForm } from '../../shared/http/multipart-form.ts';

/** The multipart reader on its own: every malformed form settles at once as a 4xx error. */
const spec = { fileField: 'csvFile', fields: ['userId', 'audienceName', 'mode'], maxFileBytes: 1024 };
const CRLF = '\r\n';
const part = (name: string, value: string, filename?: string) =>
  `--b${CRLF}Content-Disposition: form-data; name="${name}"${filename === undefined ? '' : `; filename="${filename}"`}${CRLF}${filename === undefined ? '' : `Content-Type: text/csv${CRLF}`}${CRLF}${value}${CRLF}`;
const form = (...parts: string[]) => Buffer.from(`${parts.join('')}--b--${CRLF}`);
const read = (body: Buffer, contentType = 'multipart/form-data; boundary=b') => readMultipartForm(body, contentType, spec);

describe('readMultipartForm', () => {
  it('reads the expected fields and the one file, ignoring other fields', async () => {
    const result = await read(form(part('userId', 'u1'), part('submit', 'Go'), part('csvFile', 'email\na@example.com\n', 'a.csv')));
    expect({ ...result.fields }).toEqual({ userId: 'u1' });
    expect(Object.getPrototypeOf(result.fields)).toBeNull();
    expect(result.file?.filename).toBe('a.csv');
    expect(result.file?.content.toString()).toBe('email\na@example.com\n');
  });

  it.each([
    'multipart/form-data; boundary="b"',
    'multipart/form-data;boundary=b',
    'multipart/form-data; charset=utf-8; boundary=b',
    'Multipart/Form-Data; BOUNDARY=b',
  ])('accepts the RFC-valid content type %s', async (contentType) => {
    const result = await read(form(part('userId', 'u1')), contentType);
    expect(result.fields.userId).toBe('u1');
  });

  it.each([
    [
      'a file part cut off before its closing boundary',
      Buffer.from(`${part('userId', 'u')}--b${CRLF}Content-Disposition: form-data; name="csvFile"; filename="a.csv"${CRLF}${CRLF}email\na@example.com\n`),
      /malformed/,
    ],
    ['userId[] after userId', form(part('userId', 'u'), part('userId[]', 'v')), /"userId" must be sent once/],
    ['__proto__[] after userId', form(part('userId', 'u'), part('__proto__[]', 'v'), part('csvFile', 'x', 'a.csv')), null],
    ['a repeated field', form(part('userId', 'u'), part('userId', 'v')), /sent more than once/],
    ['two files', form(part('csvFile', 'a', 'a.csv'), part('csvFile', 'b', 'b.csv')), /more than one file/],
    ['a file in another field', form(part('userId', 'u'), part('other', 'x', 'x.csv')), /exactly one file, in the csvFile field/],
    ['the file field as text', form(part('csvFile', 'email')), /must be a file part/],
    [
      'more than 30 parts, then a big one',
      form(...Array.from({ length: 31 }, (_, index) => part(`f${index}`, 'x')), part('userId', 'y'.repeat(100_000))),
      /more than 30/,
    ],
    ['a field over 64 KB', form(part('audienceName', 'n'.repeat(70_000))), /longer than 64 KB/],
    ['not multipart at all', Buffer.from('hello'), /malformed|parts/],
  ])('%s → a 400, at once', async (_label, body, message) => {
    const outcome = read(body).then(
      (value) => ({ ok: value }),
      (error: Error & { status?: number }) => ({ error }),
    );
    const settled = await Promise.race([outcome, new Promise((resolve) => setTimeout(() => resolve('stalled'), 1_000))]);
    expect(settled).not.toBe('stalled');
    if (message === null) return; // ignored names are fine, as long as it settles
    expect(settled).toMatchObject({ error: { status: 400, message: expect.stringMatching(message) } });
  });

  it('a file over the limit → 413, a content type without a boundary → 415', async () => {
    await expect(read(form(part('csvFile', 'x'.repeat(2_000), 'a.csv')))).rejects.toMatchObject({ status: 413 });
    await expect(read(form(part('userId', 'u')), 'multipart/form-data')).rejects.toMatchObject({ status: 415 });
  });

  it('an empty boundary, or one over RFC 2046’s 70 characters → 415 at once (busboy stalled on an empty one)', async () => {
    // the body a fast-check run drew (seed 1795965467062), cut to what stalls: a file part of over 64 KB, then a
    // part whose headers end in the close delimiter an empty boundary makes (CRLF, four dashes)
    const stalled = Buffer.from(
      `\r\n--b\r\nContent-Disposition: form-data; name="audienceName"; filename="x"y.csv"\r\nContent-Type: text/csv\r\n\r\n${'0&6@0d'.repeat(11_000)}\r\n--b\r\nContent-Disposition: form-data; name="csvFile"; filename=""\r\nContent-Type: text/csv\r\n----`,
    );
    for (const contentType of ['multipart/form-data; boundary=', 'multipart/form-data; boundary=""', `multipart/form-data; boundary=${'b'.repeat(71)}`]) {
      const outcome = read(stalled, contentType).then(
        () => 'read',
        (error: { status: number; message: string }) => ({ status: error.status, message: error.message }),
      );
      const settled = await Promise.race([outcome, new Promise((resolve) => setTimeout(() => resolve('stalled'), 1_000))]);
      expect(settled, contentType).toEqual({ status: 415, message: expect.stringContaining('a boundary of 1 to 70 characters') });
    }
    // the longest a boundary may be is read
    const longest = 'b'.repeat(70);
    const body = Buffer.from(`--${longest}\r\nContent-Disposition: form-data; name="userId"\r\n\r\nu\r\n--${longest}--\r\n`);
    expect((await read(body, `multipart/form-data; boundary=${longest}`)).fields).toEqual({ userId: 'u' });
  });
});
