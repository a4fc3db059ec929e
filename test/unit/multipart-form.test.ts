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
});
