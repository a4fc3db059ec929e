import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_CONNECTIONS } from '../../local/sandbox/demo-data.ts';
import { sha256Hex } from '../../shared/audiences/normalize.ts';
import { hashApiKey, findTenantIdByKeyHash } from '../../shared/store/api-keys.ts';
import { call, newTenant, upload } from '../helpers/api.ts';
import { contactsCsv } from '../helpers/contacts.ts';
import { injectFault, upstreamRequestsWith } from '../helpers/sandbox.ts';
import { newSocialUser } from '../helpers/social.ts';

const ACCOUNT = DEMO_CONNECTIONS.social.adAccountId;
const PATH = '/social/create_social_csv_audience';
let apiKey = '';
beforeAll(async () => {
  apiKey = await newTenant();
});

const sample = readFileSync(new URL('../../samples/social-contacts.csv', import.meta.url));

async function stagedObjects(): Promise<string[]> {
  const tenantId = await findTenantIdByKeyHash(hashApiKey(apiKey));
  const s3 = new S3Client({ forcePathStyle: true });
  const listed = await s3.send(new ListObjectsV2Command({ Bucket: process.env.UPLOAD_BUCKET, Prefix: `uploads/${tenantId}/` }));
  return (listed.Contents ?? []).map((object) => object.Key as string);
}

const bodies = (requests: Array<{ body: string }>) => requests.map((request) => JSON.parse(request.body));

describe('create_social_csv_audience', () => {
  it('create: makes the customer-file audience, then sends the hashed rows in one session', async () => {
    const { userId, token } = await newSocialUser(apiKey);
    const response = await upload(PATH, { userId, audienceName: 'Newsletter subscribers' }, { field: 'csvFile', content: sample }, { apiKey });
    expect(response.status).toBe(200);
    const results = response.body.results;
    expect(results).toEqual({
      success: true,
      audienceId: expect.stringMatching(/^\d+$/),
      audienceName: 'Newsletter subscribers',
      invalid_entry_samples: {},
      num_invalid_entries: 0,
      num_received: 10,
      session_id: expect.stringMatching(/^\d+$/),
    });

    const [create, users, ...rest] = await upstreamRequestsWith('social', token);
    expect(rest).toEqual([]);
    expect(create?.method).toBe('POST');
    expect(create?.path).toBe(`/v26.0/act_${ACCOUNT}/customaudiences`);
    expect(JSON.parse(create?.body ?? '{}')).toMatchObject({ name: 'Newsletter subscribers', subtype: 'CUSTOM', customer_file_source: 'USER_PROVIDED_ONLY' });

    expect(users?.method).toBe('POST');
    expect(users?.path).toBe(`/v26.0/${results.audienceId}/users`);
    const body = JSON.parse(users?.body ?? '{}');
    expect(body.session).toEqual({ session_id: Number(results.session_id), batch_seq: 1, last_batch_flag: true, estimated_num_total: 10 });
    expect(body.payload.schema).toEqual(['EMAIL', 'PHONE', 'FN', 'LN', 'CT', 'ST', 'ZIP', 'COUNTRY', 'DOBY', 'DOBM', 'DOBD', 'GEN']);
    expect(body.payload.is_raw).toBe(true);
    expect(body.payload.data).toHaveLength(10);
    // the first row is the contract's worked example
    expect(body.payload.data[0]).toEqual([
      'f1904cf1a9d73a55fa5de0ac823c4403ded71afd4c3248d00bdcd0866552bb79',
      '1ef970831d7963307784fa8688e8fce101a15685d62aa765fed23f3a2c576a4e',
      '16b3f07f0ec2f9dd127b71dc2e6c791b7d93116a1c3bc99d057eaa7a8a077e73',
      'b4cb6cb33fe4b865868de825023a1e2790dc12ac01ecc8d7c5afe8254071c8ba',
      '0007a3d64c01e23d5075203c5977c14e4f7e01a3fc570686fcc50b5e1dd42685',
      '6959097001d10501ac7d54c0bdb8db61420f658f2922cc26e46d536119a31126',
      'b9a9cf3cd3723a2e91b7c23ecf68456e872b6e5d86e5cab7f3d45a7302da32c7',
      '79adb2a2fce5c6ba215fe5f27f532d4e7edbac4b6a5e09e1ef3a08084a904621',
      '78e370b587b145920213731b7c7c725e512b3b6577c51c800218a7c764c532ae',
      '19b100ab7725c612f3d80ff203ca53cea5cadaafae3bf0f88f0fb4089fe08815',
      '6cd5b6e51936a442b973660c21553dd22bd72ddc8751132a943475288113b4c0',
      '252f10c83610ebca1a059c0bae8255eba2f95be4d1d7bcfa89d7248a82d9f111',
    ]);
    // nothing but hashes and empty cells leaves the service
    for (const row of body.payload.data) for (const cell of row) expect(cell).toMatch(/^([0-9a-f]{64})?$/);
    expect(users?.body).not.toContain('example.com');
    // the staged file is gone after success
    expect(await stagedObjects()).toEqual([]);
  });

  it('sends 25,000 rows as three batches of one session, the last flag only on the last', async () => {
    const { userId, token } = await newSocialUser(apiKey);
    const response = await upload(PATH, { userId, audienceName: 'Big list' }, { field: 'csvFile', content: contactsCsv(25_000) }, { apiKey });
    expect(response.status).toBe(200);
    expect(response.body.results).toMatchObject({ num_received: 25_000, num_invalid_entries: 0 });
    const batches = bodies((await upstreamRequestsWith('social', token)).filter((request) => request.path.endsWith('/users')));
    expect(batches.map((body) => body.session.batch_seq)).toEqual([1, 2, 3]);
    expect(batches.map((body) => body.session.last_batch_flag)).toEqual([false, false, true]);
    expect(batches.map((body) => body.payload.data.length)).toEqual([10_000, 10_000, 5_000]);
    expect(new Set(batches.map((body) => body.session.session_id))).toEqual(new Set([Number(response.body.results.session_id)]));
    expect(batches.map((body) => body.session.estimated_num_total)).toEqual([25_000, 25_000, 25_000]);
  });

  it.each([
    ['append', 'POST', 'users'],
    ['remove', 'DELETE', 'users'],
    ['replace', 'POST', 'usersreplace'],
  ])('%s: sends the rows to its endpoint of the existing audience', async (mode, method, edge) => {
    const { userId, token } = await newSocialUser(apiKey);
    const created = await upload(PATH, { userId, audienceName: 'Base' }, { field: 'csvFile', content: sample }, { apiKey });
    const audienceId = created.body.results.audienceId;
    const response = await upload(PATH, { userId, audienceName: 'Base', mode, audienceId }, { field: 'csvFile', content: sample }, { apiKey });
    expect(response.status).toBe(200);
    expect(response.body.results).toMatchObject({ audienceId, num_received: 10, num_invalid_entries: 0 });
    const requests = await upstreamRequestsWith('social', token);
    expect(requests.filter((request) => request.path.endsWith('/customaudiences'))).toHaveLength(1);
    // the rows were written twice: by the create, then by this mode to its endpoint (compared as writes of rows, not
    // as the user's last request: another request of the user's could come after them on a busy machine)
    const writes = requests.filter((request) => /\/(users|usersreplace)$/.test(request.path));
    expect(writes.map((request) => `${request.method} ${request.path}`)).toEqual([`POST /v26.0/${audienceId}/users`, `${method} /v26.0/${audienceId}/${edge}`]);
    expect(JSON.parse(writes[1]?.body ?? '{}').session).toMatchObject({ batch_seq: 1, last_batch_flag: true });
  });

  it.each(['append', 'replace', 'remove'])('%s without audienceId → 400, nothing sent', async (mode) => {
    const { userId, token } = await newSocialUser(apiKey);
    const response = await upload(PATH, { userId, audienceName: 'x', mode }, { field: 'csvFile', content: sample }, { apiKey });
    expect(response.status).toBe(400);
    expect(response.body.results.details).toEqual([{ path: 'audienceId', message: `is required when mode is ${mode}` }]);
    expect(await upstreamRequestsWith('social', token)).toEqual([]);
  });

  it('counts rows it cannot use, with samples that name the line and column but not the value', async () => {
    const { userId } = await newSocialUser(apiKey);
    const csv = 'email,phone\nmary@example.com,+1 555 987 6543\nnot-an-email,\n,555 987 6543\n';
    const response = await upload(PATH, { userId, audienceName: 'Partly bad' }, { field: 'csvFile', content: csv }, { apiKey });
    expect(response.status).toBe(200);
    expect(response.body.results).toMatchObject({
      num_received: 3,
      num_invalid_entries: 2,
      invalid_entry_samples: {
        'line 3 (email)': 'EMAIL: not an email address',
        'line 4 (phone)': 'PHONE: no country calling code (write +<code> or add a country column)',
      },
    });
    expect(response.text).not.toContain('not-an-email');
    expect(response.text).not.toContain('555 987 6543');
  });

  it('accepts a headerless column of e-mails, CRLF, semicolons, quotes and a BOM', async () => {
    const { userId, token } = await newSocialUser(apiKey);
    const headerless = await upload(
      PATH,
      { userId, audienceName: 'Headerless' },
      { field: 'csvFile', content: 'mary@example.com\r\njohn.doe@example.com\r\n' },
      { apiKey },
    );
    expect(headerless.status).toBe(200);
    expect(headerless.body.results.num_received).toBe(2);
    const semicolons = await upload(
      PATH,
      { userId, audienceName: 'Semicolons' },
      { field: 'csvFile', content: '\uFEFFEMAIL;First_Name\r\n"mary@example.com";"Mary-Ann"\r\n' },
      { apiKey },
    );
    expect(semicolons.status).toBe(200);
    const batches = bodies((await upstreamRequestsWith('social', token)).filter((request) => request.path.endsWith('/users')));
    expect(batches[0].payload.schema).toEqual(['EMAIL']);
    expect(batches[0].payload.data).toEqual([[sha256Hex('mary@example.com')], [sha256Hex('john.doe@example.com')]]);
    expect(batches[1].payload.schema).toEqual(['EMAIL', 'FN']);
    expect(batches[1].payload.data).toEqual([[sha256Hex('mary@example.com'), sha256Hex('maryann')]]);
  });

  it('answers a retried Idempotency-Key from the stored result, without a second upload', async () => {
    const { userId, token } = await newSocialUser(apiKey);
    const headers = { 'idempotency-key': randomUUID() };
    const first = await upload(PATH, { userId, audienceName: 'Once' }, { field: 'csvFile', content: sample }, { apiKey, headers });
    const retry = await upload(PATH, { userId, audienceName: 'Once' }, { field: 'csvFile', content: sample }, { apiKey, headers });
    expect(retry.body).toEqual(first.body);
    expect(await upstreamRequestsWith('social', token)).toHaveLength(2);
    const otherFile = await upload(PATH, { userId, audienceName: 'Once' }, { field: 'csvFile', content: contactsCsv(3) }, { apiKey, headers });
    expect(otherFile.status).toBe(409);
    expect(otherFile.body.results.code).toBe('IDEMPOTENCY_CONFLICT');
  });

  it('after a failure mid-upload, says what landed; the retry resumes after the last acknowledged batch', async () => {
    const { userId, token } = await newSocialUser(apiKey);
    const headers = { 'idempotency-key': randomUUID() };
    const csv = contactsCsv(25_000);
    await injectFault('social', {
      requestIncludes: ['"batch_seq":2', token],
      status: 500,
      body: { error: { message: 'An unexpected error has occurred.', code: 2, is_transient: true } },
      times: 3,
    });
    const failed = await upload(PATH, { userId, audienceName: 'Resumable' }, { field: 'csvFile', content: csv }, { apiKey, headers });
    expect(failed.status).toBe(502);
    expect(failed.body.results).toMatchObject({
      code: 'PLATFORM_UNAVAILABLE',
      rows_landed: 10_000,
      rows_total: 25_000,
      session_id: expect.stringMatching(/^\d+$/),
      audienceId: expect.any(String),
    });
    expect(failed.body.results.error).toContain('10000 of 25000 rows had landed');
    expect(await stagedObjects()).toEqual([]); // contacts are not kept after a failure: the retry sends the file again

    const resumed = await upload(PATH, { userId, audienceName: 'Resumable' }, { field: 'csvFile', content: csv }, { apiKey, headers });
    expect(resumed.status).toBe(200);
    expect(resumed.body.results).toMatchObject({
      audienceId: failed.body.results.audienceId,
      session_id: failed.body.results.session_id,
      num_received: 25_000,
    });

    const requests = await upstreamRequestsWith('social', token);
    expect(requests.filter((request) => request.path.endsWith('/customaudiences'))).toHaveLength(1);
    const batches = bodies(requests.filter((request) => request.path.endsWith('/users')));
    expect(batches.map((body) => body.session.batch_seq)).toEqual([1, 2, 2, 2, 2, 3]);
    expect(new Set(batches.map((body) => body.session.session_id)).size).toBe(1);
    expect(await stagedObjects()).toEqual([]);
  });

  it('maps platform refusals of a batch to PLATFORM_REJECTED', async () => {
    const { userId, token } = await newSocialUser(apiKey);
    await injectFault('social', {
      requestIncludes: token,
      pathIncludes: '/users',
      status: 400,
      body: {
        error: {
          message: 'Audience Upload Blocked',
          code: 100,
          error_subcode: 1713230,
          error_user_msg: 'Your audience upload was blocked because this audience was flagged.',
        },
      },
    });
    const response = await upload(PATH, { userId, audienceName: 'Blocked' }, { field: 'csvFile', content: sample }, { apiKey });
    expect(response.status).toBe(200);
    expect(response.body.results).toMatchObject({ success: false, code: 'PLATFORM_REJECTED', platformSubcode: 1713230, rows_landed: 0 });
  });
});

describe('create_social_csv_audience: bad uploads → 400 with a sentence, nothing sent upstream', () => {
  const cases: Array<[string, string | Buffer, RegExp]> = [
    ['an empty file', '', /file is empty/],
    ['a header only', 'email,phone\n', /header but no data rows/],
    ['binary bytes', Buffer.from([0x50, 0x4b, 0x03, 0x04, 0xff, 0xfe, 0x00, 0x9c, 0x80, 0x81]), /not UTF-8 text|binary data/],
    ['NUL bytes in text', 'email\nmary@example.com\u0000\n', /binary data/],
    ['no known header', 'name,mail\nMary,mary@example.com\n', /no known column/],
    ['an unknown extra column', 'email,emial\nmary@example.com,x\n', /unknown column\(s\): emial/],
    ['an unterminated quote', 'email,phone\nmary@example.com,"+1 555\njohn@example.com,+1 555 1234\n', /quoted field that is never closed/],
    [
      'a quote inside an unquoted field',
      'email,phone\nmary@example.com,+1 555 1234\njo"hn@example.com,+1 555 1234\n',
      /quote inside an unquoted field at line 3/,
    ],
    ['a stray character after a closing quote', 'email,phone\n"mary@example.com"x,+1 555 1234\n', /stray character after a closing quote at line 2/],
    ['a 2 MB line', `email\n${'a'.repeat(2 * 1024 * 1024)}@example.com\n`, /longer than 64 KB/],
    ['rows of the wrong width', 'email,phone\nmary@example.com\n', /number of fields differs/],
    ['no usable row', 'email\nnot-an-email\nalso-not\n', /None of the 2 rows can be used; for example line 2 \(email\): EMAIL: not an email address/],
  ];

  it.each(cases)('%s', async (_label, content, sentence) => {
    const { userId, token } = await newSocialUser(apiKey);
    const stagedBefore = await stagedObjects();
    const response = await upload(PATH, { userId, audienceName: 'Bad file' }, { field: 'csvFile', content }, { apiKey });
    expect(response.status).toBe(400);
    expect(response.body.results.code).toBe('INVALID_REQUEST');
    expect(response.body.results.error).toMatch(sentence);
    expect(await upstreamRequestsWith('social', token)).toEqual([]);
    expect(await stagedObjects()).toEqual(stagedBefore); // a file that cannot be used is not kept
  });

  it('a missing file field', async () => {
    const { userId } = await newSocialUser(apiKey);
    const response = await upload(PATH, { userId, audienceName: 'No file' }, undefined, { apiKey });
    expect(response.status).toBe(400);
    expect(response.body.results.details).toEqual([{ path: 'csvFile', message: 'must be one attached CSV file (form field csvFile)' }]);
  });

  it('the file sent as a text field, and hostile part names', async () => {
    const { userId } = await newSocialUser(apiKey);
    const response = await upload(
      PATH,
      { userId, audienceName: 'Text', csvFile: 'email\nmary@example.com', __proto__: 'x', constructor: 'y' } as Record<string, string>,
      undefined,
    );
    expect(response.status).toBe(400);
    expect(response.body.results.details[0].path).toBe('csvFile');
  });

  it('a JSON body without an uploadId → 400 naming it; another type → 415', async () => {
    const response = await call(PATH, { userId: 'demo-user', audienceName: 'x' }, { apiKey });
    expect(response.status).toBe(400);
    expect(response.body.results.details).toContainEqual({ path: 'uploadId', message: expect.any(String) });
    const text = await call(PATH, undefined, { apiKey, raw: 'userId=demo-user', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(text.status).toBe(415);
    expect(text.body.results.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('a malformed multipart body → 400', async () => {
    const response = await call(PATH, undefined, { apiKey, raw: '--x\r\nnot a part', headers: { 'content-type': 'multipart/form-data; boundary=x' } });
    expect(response.status).toBe(400);
    expect(response.body.results.code).toBe('INVALID_REQUEST');
  });

  it('a file beyond the 4 MB a request can carry → 413', async () => {
    const { userId, token } = await newSocialUser(apiKey);
    const response = await upload(PATH, { userId, audienceName: 'Huge' }, { field: 'csvFile', content: contactsCsv(150_000) }, { apiKey });
    expect(response.status).toBe(413);
    expect(response.body.results.code).toBe('PAYLOAD_TOO_LARGE');
    expect(response.body.results.error).toContain('Send a larger file with /uploads/create_upload');
    expect(await upstreamRequestsWith('social', token)).toEqual([]);
  });
});
