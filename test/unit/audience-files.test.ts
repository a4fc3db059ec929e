import { createHash, createHmac } from 'node:crypto';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { presignedRequestProblem } from '../../local/s3-presigned-guard.ts';
import { loadAudiences } from '../../local/sandbox/social-audiences.ts';
import { forEachContactRow, type ContactFileResume } from '../../shared/audiences/contact-file.ts';
import { readCsv, type CsvRecord } from '../../shared/audiences/csv-reader.ts';
import { checkProfessionalList, professionalListCsv } from '../../shared/audiences/professional-list.ts';

const bytes = (text: string) =>
  (async function* () {
    yield Buffer.from(text);
  })();

describe('the local S3 front checks presigned PUTs as S3 does', () => {
  const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
  const client = new S3Client({
    region: 'us-east-1',
    endpoint: 'http://127.0.0.1:9000',
    forcePathStyle: true,
    credentials,
    requestChecksumCalculation: 'WHEN_REQUIRED',
  });
  const signedAt = Math.floor(Date.now() / 1000) * 1000; // any whole second: the check is given its own now
  const presigned = async (key: string) =>
    new URL(
      await getSignedUrl(client, new PutObjectCommand({ Bucket: 'uploads', Key: key, ContentLength: 12, ContentType: 'text/csv' }), {
        expiresIn: 900,
        signingDate: new Date(signedAt),
        signableHeaders: new Set(['content-type', 'content-length']),
      }),
    );
  const check = async (url: URL, headers: Record<string, string>, now = signedAt + 1_000, method = 'PUT') =>
    presignedRequestProblem({ method, path: `${url.pathname}${url.search}`, host: url.host, headers }, credentials, now);

  it('takes the signed size and type, with a key that needs escaping', async () => {
    const url = await presigned('uploads/t/user%40example.com/upl_1.csv');
    expect(await check(url, { 'content-length': '12', 'content-type': 'text/csv' })).toBeUndefined();
  });

  it.each([
    ['another size', { 'content-length': '13', 'content-type': 'text/csv' }, 'SignatureDoesNotMatch'],
    ['another type', { 'content-length': '12', 'content-type': 'text/plain' }, 'SignatureDoesNotMatch'],
    ['no length (chunked)', { 'content-type': 'text/csv' }, 'SignatureDoesNotMatch'],
  ])('refuses %s', async (_, headers, code) => {
    expect(await check(await presigned('uploads/t/u/upl_1.csv'), headers)).toMatchObject({ status: 403, code });
  });

  it('refuses another method, another key, a changed expiry, and the URL after its 15 minutes', async () => {
    const url = await presigned('uploads/t/u/upl_1.csv');
    const headers = { 'content-length': '12', 'content-type': 'text/csv' };
    expect(await check(url, headers, signedAt + 1_000, 'GET')).toMatchObject({ code: 'SignatureDoesNotMatch' });
    const otherKey = new URL(url.href.replace('upl_1', 'upl_2'));
    expect(await check(otherKey, headers)).toMatchObject({ code: 'SignatureDoesNotMatch' });
    const longer = new URL(url.href.replace('X-Amz-Expires=900', 'X-Amz-Expires=9000'));
    expect(await check(longer, headers)).toMatchObject({ code: 'SignatureDoesNotMatch' });
    expect(await check(url, headers, signedAt + 900_000)).toBeUndefined();
    expect(await check(url, headers, signedAt + 900_001)).toMatchObject({ status: 403, code: 'AccessDenied' });
  });
});

/** The file's bytes in pieces of 1 to 3 bytes: multi-byte characters and line breaks split across chunks. */
const inPieces = (file: Buffer) =>
  (async function* () {
    for (let at = 0, size = 1; at < file.length; at += size, size = (size % 3) + 1) yield file.subarray(at, at + size);
  })();

async function recordsOf(stream: AsyncIterable<Uint8Array>, start?: Parameters<typeof readCsv>[1]): Promise<{ delimiter: string; records: CsvRecord[] }> {
  const records: CsvRecord[] = [];
  let delimiter = '';
  for await (const step of readCsv(stream, start)) {
    delimiter = step.delimiter;
    records.push(...step.records);
  }
  return { delimiter, records };
}

describe('resuming a contact file', () => {
  it('counts the rows a resume skips without hashing or visiting them', async () => {
    const visited: number[] = [];
    const result = await forEachContactRow(bytes('email\na@example.com\nb@example.com\nc@example.com\n'), (_, line) => void visited.push(line), {
      skipRows: 2,
    });
    expect(result.dataRows).toBe(3);
    expect(visited).toEqual([4]);
  });

  // a BOM, CRLF, a quoted field holding the delimiter and a line break, an empty line, 2-, 3- and 4-byte characters
  const file = Buffer.from(
    '\uFEFFemail;first_name;city\r\nzoë@example.com;"Zoë; the\r\nsecond";Zürich\r\n\r\nami@example.com;愛;東京\r\nrex@example.com;Rex 🦖;Oslo\r\n',
  );

  it('gives each record the byte offset just past its line break, as the file holds it', async () => {
    const { delimiter, records } = await recordsOf(inPieces(file));
    expect(delimiter).toBe(';');
    const breaks = [file.indexOf('Zürich\r\n') + Buffer.byteLength('Zürich\r\n'), file.indexOf('東京\r\n') + Buffer.byteLength('東京\r\n'), file.length];
    expect(records.map((record) => record.endByte)).toEqual([file.indexOf('zoë'), ...breaks]);
    expect(records.map((record) => record.line)).toEqual([1, 2, 3, 4]);
  });

  it('ends the last record at the end of the file when no line break follows it, and skipped empty lines after it', async () => {
    const unended = 'email\na@example.com\n"b\n@example.com"';
    expect((await recordsOf(bytes(unended))).records.map((record) => record.endByte)).toEqual([6, 20, unended.length]);
    expect((await recordsOf(bytes('email\na@example.com\n\n\n'))).records.map((record) => record.endByte)).toEqual([6, 20]);
  });

  it('ends records at every kind of line break, mixed in one file, and a single-column list keeps each row', async () => {
    const mixed = 'email\r\na@example.com\nb@example.com\rc@example.com\r\n"d\r\n@example.com"';
    const { records } = await recordsOf(inPieces(Buffer.from(mixed)));
    expect(records.map((record) => record.cells)).toEqual([['email'], ['a@example.com'], ['b@example.com'], ['c@example.com'], ['d\r\n@example.com']]);
    expect(records.map((record) => record.endByte)).toEqual([7, 21, 35, 50, mixed.length]);
    const rows: unknown[] = [];
    await forEachContactRow(bytes('a@example.com\r\nb@example.com\nc@example.com\n'), (row) => void rows.push(row), { hash: false });
    expect(rows).toEqual([{ values: ['a@example.com'] }, { values: ['b@example.com'] }, { values: ['c@example.com'] }]);
  });

  it('reads from any record boundary on exactly the records a whole read gives after it', async () => {
    const whole = await recordsOf(bytes(file.toString()));
    for (const [index, record] of whole.records.entries()) {
      const rest = await recordsOf(inPieces(file.subarray(record.endByte)), { byte: record.endByte, line: record.line, delimiter: whole.delimiter });
      expect(rest.records).toEqual(whole.records.slice(index + 1));
    }
  });

  it('hashes the rows after a resume point as a whole read does, with their own line numbers', async () => {
    const whole: Array<[number, unknown]> = [];
    const points: ContactFileResume[] = [];
    await forEachContactRow(bytes(file.toString()), (row, line, _, resumeAfter) => {
      whole.push([line, row]);
      points.push(resumeAfter());
    });
    expect(points[0]).toMatchObject({ dataRows: 1, line: 2, delimiter: ';', layout: { schema: ['EMAIL', 'FN', 'CT'] } });
    for (const [index, from] of points.entries()) {
      const resumed: Array<[number, unknown]> = [];
      const result = await forEachContactRow(inPieces(file.subarray(from.byte)), (row, line) => void resumed.push([line, row]), { from });
      expect(resumed).toEqual(whole.slice(index + 1));
      expect(result.dataRows).toBe(3);
    }
  });
});

describe('a professional list streamed for upload', () => {
  it('is exactly as long as its check measured, and the same rows the in-memory rewrite gives', async () => {
    const csv = 'Email,FirstName,LastName,Country\nA@Example.com,Ann,Lee,us\na@example.com,Ann,Lee,US\nnot-an-email,Bo,Li,se\n,Cy,Ng,\n';
    const checked = await checkProfessionalList('USER_LIST_UPLOAD', bytes(csv));
    let streamed = '';
    for await (const chunk of professionalListCsv('USER_LIST_UPLOAD', bytes(csv))) streamed += Buffer.from(chunk).toString();
    expect(Buffer.byteLength(streamed)).toBe(checked.csvBytes);
    expect(streamed.split('\n').filter(Boolean)).toHaveLength(3); // header, the one e-mail (its repeat dropped), the named person
    expect(checked).toMatchObject({
      rows: 2,
      warnings: [expect.stringContaining('1 row(s) were left out: line 4: email is not an e-mail address'), expect.stringContaining('needs at least 300')],
    });
  });
});

/** an audience journal in a folder of its own, removed after the file's tests */
const journals = mkdtempSync(join(tmpdir(), 'ad-api-journals-'));
afterAll(() => rmSync(journals, { recursive: true, force: true }));
const journalFile = () => join(mkdtempSync(join(journals, 'journal-')), 'audiences.json');

describe('the social sandbox’s audience journal', () => {
  it('reads the lines written whole and leaves a line still being written (or torn by a kill) for later', () => {
    const file = journalFile();
    const line = (changes: unknown[], batches: unknown[] = []) =>
      JSON.stringify({ id: '1', accountId: '9', name: 'Ünïcode list', subtype: 'CUSTOM', sessions: [], batches, changes });
    writeFileSync(
      file,
      `${line(
        [
          ['a', 'x'],
          ['a', 'y'],
        ],
        [{ edge: 'users', method: 'POST', session: { batch_seq: 1 }, rows: 2 }],
      )}\n${line([['d', 'x']])}\n${line([['a', 'z']]).slice(0, 40)}`,
    );
    const audience = loadAudiences(file).get('1');
    expect(audience?.memberCount).toBe(1); // a journal of member changes (written before counts) is read as counts
    expect(audience?.batches).toHaveLength(1);
    expect(audience?.name).toBe('Ünïcode list');
  });
});

describe('the social sandbox’s audience state is bounded', () => {
  it('keeps counts, digests and a few recent members, not every row: the journal grows by the batch, and a batch sent again is counted once', async () => {
    const { startSocialSandbox } = await import('../../local/sandbox/social.ts');
    const { countedDigest, memberDigest, loadAudiences } = await import('../../local/sandbox/social-audiences.ts');
    const { DEMO_CONNECTIONS, SANDBOX_APP_CREDENTIALS } = await import('../../local/sandbox/demo-data.ts');
    const file = journalFile();
    const sandbox = await startSocialSandbox({ audiencesFile: file });
    const token = DEMO_CONNECTIONS.social.accessToken;
    const auth = { access_token: token, appsecret_proof: createHmac('sha256', SANDBOX_APP_CREDENTIALS.SOCIAL_APP_SECRET).update(token).digest('hex') };
    const post = async (path: string, params: Record<string, string>) => {
      const response = await fetch(`${sandbox.url}/v26.0/${path}`, { method: 'POST', body: new URLSearchParams({ ...auth, ...params }) });
      return (await response.json()) as Record<string, unknown>;
    };
    try {
      const { id } = (await post(`act_${DEMO_CONNECTIONS.social.adAccountId}/customaudiences`, { name: 'Bounded', subtype: 'CUSTOM' })) as { id: string };
      const rows = (batch: number) =>
        Array.from({ length: 10_000 }, (_, index) => [createHash('sha256').update(`b${batch}.${index}@example.com`).digest('hex')]);
      const send = (batch: number, last = false) =>
        post(`${id}/users`, {
          payload: JSON.stringify({ schema: ['EMAIL'], data: rows(batch) }),
          session: JSON.stringify({ session_id: 7, batch_seq: batch, last_batch_flag: last }),
        });
      await send(1);
      await send(2);
      await send(2); // the same batch again, as a worker that lost the answer sends it
      await send(3, true);
      const audience = loadAudiences(file).get(id);
      expect(audience?.memberCount).toBe(30_000);
      expect(audience?.recentMembers).toHaveLength(10);
      expect(audience?.batches.map((batch) => [batch.session.batch_seq, batch.repeated ?? false])).toEqual([
        [1, false],
        [2, false],
        [2, true],
        [3, false],
      ]);
      const every = [1, 2, 3].flatMap((batch) => rows(batch).map((row) => JSON.stringify(row)));
      expect(countedDigest(audience as NonNullable<typeof audience>)).toBe(memberDigest(every));
      // four batches of 10,000 rows: a few kilobytes, where the rows themselves are 2.7 MB
      expect(statSync(file).size).toBeLessThan(8_000);
    } finally {
      await sandbox.close();
    }
  });
});
