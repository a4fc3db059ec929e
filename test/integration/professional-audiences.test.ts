import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../shared/audiences/normalize.ts';
import { call, newTenant, newUser, upload } from '../helpers/api.ts';
import { injectFault, upstreamRequestsWith } from '../helpers/sandbox.ts';

const PATH = '/professional/create_csv_audience';
const ACCOUNT = '500000001';
let apiKey = '';
beforeAll(async () => {
  apiKey = await newTenant();
});

const contacts = readFileSync(new URL('../../samples/professional-contacts.csv', import.meta.url), 'utf8');
const companies = readFileSync(new URL('../../samples/professional-companies.csv', import.meta.url), 'utf8');

async function professionalUser(overrides: Record<string, string> = {}) {
  const accessToken = `AQVtest${randomBytes(10).toString('hex')}`;
  const userId = await newUser(apiKey, { professional: { accessToken, adAccountId: ACCOUNT, ...overrides } });
  return { userId, token: overrides.accessToken ?? accessToken };
}

describe('create_csv_audience', () => {
  it('USER_LIST_UPLOAD: upload URL, hashed CSV, segment, attachment; csvFileId is the media URN', async () => {
    const { userId, token } = await professionalUser();
    const response = await upload(
      PATH,
      { userId, type: 'USER_LIST_UPLOAD', audienceName: 'Webinar attendees' },
      { field: 'csv', content: contacts, name: 'contacts.csv' },
      { apiKey },
    );
    expect(response.status).toBe(200);
    const csvFileId = response.body.results.audience.csvFileId;
    expect(csvFileId).toMatch(/^urn:li:media:\/AAYA[\w-]+\.csv$/);
    expect(response.body.results).not.toHaveProperty('warnings');

    const [generate, fileUpload, segment, attach, ...rest] = await upstreamRequestsWith('professional', token);
    expect(rest).toEqual([]);
    expect(generate).toMatchObject({ method: 'POST', path: '/rest/dmpSegments', query: { action: 'generateUploadUrl' } });
    expect(generate?.headers).toMatchObject({
      'linkedin-version': '202608',
      'x-restli-protocol-version': '2.0.0',
      'content-type': 'application/json',
      authorization: `Bearer ${token}`,
    });
    expect(JSON.parse(generate?.body ?? '{}')).toEqual({ owner: `urn:li:sponsoredAccount:${ACCOUNT}` });

    expect(fileUpload).toMatchObject({ method: 'POST', path: '/ambry/' });
    expect(fileUpload?.headers['content-type']).toBe('text/csv');
    expect(fileUpload?.headers).not.toHaveProperty('linkedin-version');
    const uploaded = parse(fileUpload?.body ?? '') as string[][];
    const original = parse(contacts) as string[][];
    expect(uploaded[0]).toEqual(['email', 'firstname', 'lastname', 'jobtitle', 'employeecompany', 'country', 'googleaid']);
    expect(uploaded).toHaveLength(original.length);
    // e-mails leave hashed; nothing of the plain address goes upstream
    const firstWithEmail = original.findIndex((row, index) => index > 0 && row[0]);
    expect(uploaded[firstWithEmail]?.[0]).toBe(sha256Hex((original[firstWithEmail]?.[0] ?? '').toLowerCase()));
    expect(fileUpload?.body).not.toContain('@example.com');

    expect(JSON.parse(segment?.body ?? '{}')).toEqual({
      name: 'Webinar attendees',
      account: `urn:li:sponsoredAccount:${ACCOUNT}`,
      type: 'USER_LIST_UPLOAD',
      sourcePlatform: 'LIST_UPLOAD',
      destinations: [{ destination: 'LINKEDIN' }],
    });
    expect(attach?.path).toMatch(/^\/rest\/dmpSegments\/\d+\/listUploads$/);
    expect(JSON.parse(attach?.body ?? '{}')).toEqual({ inputFile: csvFileId });
  });

  it('COMPANY_LIST_UPLOAD, named after the type and time when no name is given', async () => {
    const { userId, token } = await professionalUser();
    const response = await upload(PATH, { userId, type: 'COMPANY_LIST_UPLOAD' }, { field: 'csv', content: companies, name: 'companies.csv' }, { apiKey });
    expect(response.status).toBe(200);
    const segment = (await upstreamRequestsWith('professional', token)).find((request) => request.path === '/rest/dmpSegments' && !request.query.action);
    expect(JSON.parse(segment?.body ?? '{}')).toMatchObject({
      type: 'COMPANY_LIST_UPLOAD',
      name: expect.stringMatching(/^Company list upload \d{4}-\d{2}-\d{2}T\d{2}:\d{2}Z$/),
    });
  });

  it('accepts a list below the platform minimum with a warning; the platform’s refusal is PLATFORM_REJECTED and the empty segment is removed', async () => {
    const { userId, token } = await professionalUser();
    const small = contacts.split('\n').slice(0, 6).join('\n');
    const response = await upload(PATH, { userId, type: 'USER_LIST_UPLOAD', audienceName: 'Small' }, { field: 'csv', content: small }, { apiKey });
    expect(response.status).toBe(200);
    expect(response.body.results).toMatchObject({ success: false, code: 'PLATFORM_REJECTED', error: expect.stringContaining('at least 300 records') });
    const requests = await upstreamRequestsWith('professional', token);
    expect(requests.at(-1)).toMatchObject({ method: 'DELETE', path: expect.stringMatching(/^\/rest\/dmpSegments\/\d+$/) });
  });

  it('reports rows it left out in warnings', async () => {
    const { userId } = await professionalUser();
    const withBad = `${contacts.trimEnd()}\nnot-an-email,,,,,,\n`;
    const response = await upload(PATH, { userId, type: 'USER_LIST_UPLOAD', audienceName: 'Mostly good' }, { field: 'csv', content: withBad }, { apiKey });
    expect(response.status).toBe(200);
    expect(response.body.results.warnings).toEqual([expect.stringMatching(/^1 row\(s\) were left out: line 322: email is not an e-mail address\.$/)]);
    expect(response.text).not.toContain('not-an-email');
  });

  it('refreshes an expired token once and replays the call', async () => {
    const { userId, token } = await professionalUser({ accessToken: `AQVEXPIRED${randomBytes(6).toString('hex')}`, refreshToken: 'AQWsandbox-refresh-token' });
    const response = await upload(PATH, { userId, type: 'USER_LIST_UPLOAD', audienceName: 'Refreshed' }, { field: 'csv', content: contacts }, { apiKey });
    expect(response.status).toBe(200);
    expect(response.body.results.audience.csvFileId).toMatch(/^urn:li:media:/);
    expect(await upstreamRequestsWith('professional', token)).toHaveLength(1); // only the first call used the old token
    expect(response.text).not.toContain('AQXrefreshed');
    // what the renewal learnt is stored, as the lifecycle's renewal stores it
    const stored = (await call('/users/get_profile', { userId }, { apiKey })).body.results.user.connections.professional;
    expect(stored).toMatchObject({ status: 'active', expiresAt: expect.any(String) });
    expect(Date.parse(stored.expiresAt) - Date.now()).toBeGreaterThan(59 * 86_400_000);
  });

  it.each([
    ['an expired token without refresh token', { accessToken: 'AQVEXPIREDnorefresh0001' }, 'PLATFORM_AUTH_EXPIRED'],
    ['a revoked token', { accessToken: 'AQVREVOKEDtoken00001' }, 'PLATFORM_AUTH_EXPIRED'],
    ['a refresh token that no longer works', { accessToken: 'AQVEXPIREDbadrefresh01', refreshToken: 'AQWREVOKEDrefresh' }, 'PLATFORM_AUTH_EXPIRED'],
  ])('%s → 200 %s', async (_label, connection, code) => {
    const { userId } = await professionalUser(connection);
    const response = await upload(PATH, { userId, type: 'USER_LIST_UPLOAD' }, { field: 'csv', content: contacts }, { apiKey });
    expect(response.status).toBe(200);
    expect(response.body.results).toMatchObject({ success: false, code, platform: 'professional' });
  });

  it.each([
    [
      422,
      {
        status: 422,
        message: 'Multiple errors occurred during the input validation.',
        errorDetails: {
          inputErrors: [{ description: 'Invalid value for field', input: { inputPath: { fieldPath: '/type' } }, code: 'ERROR :: /type :: not an enum symbol' }],
        },
      },
      200,
      'PLATFORM_REJECTED',
      '/type',
    ],
    [426, { status: 426, code: 'NONEXISTENT_VERSION', message: 'Requested version 202608 is not active' }, 200, 'PLATFORM_REJECTED', '202608'],
    [
      403,
      { status: 403, serviceErrorCode: 100, code: 'ACCESS_DENIED', message: 'Not enough permissions to access: partnerApiDmpSegments.CREATE.20260801' },
      200,
      'PLATFORM_REJECTED',
      'ACCESS_DENIED',
    ],
    [
      429,
      { status: 429, code: 'SEGMENT_LIMIT_EXCEEDED', message: 'The number of DMP segments for this ad account exceeds the allowed limit' },
      200,
      'PLATFORM_REJECTED',
      'SEGMENT_LIMIT_EXCEEDED',
    ],
  ])('upstream %i → %s', async (status, body, ourStatus, code, mention) => {
    const { userId, token } = await professionalUser();
    await injectFault('professional', { requestIncludes: token, pathIncludes: '/rest/dmpSegments', status, body });
    const response = await upload(PATH, { userId, type: 'USER_LIST_UPLOAD' }, { field: 'csv', content: contacts }, { apiKey });
    expect(response.status).toBe(ourStatus);
    expect(response.body.results).toMatchObject({ success: false, code });
    expect(response.body.results.error).toContain(mention);
    expect(await upstreamRequestsWith('professional', token)).toHaveLength(1);
  });

  it('a throttle that persists → 429 PLATFORM_RATE_LIMITED with Retry-After until the quota resets', async () => {
    const { userId, token } = await professionalUser();
    await injectFault('professional', {
      requestIncludes: token,
      status: 429,
      body: { status: 429, message: 'Resource level throttle limit for calls to this resource is reached.' },
      times: 3,
    });
    const response = await upload(PATH, { userId, type: 'USER_LIST_UPLOAD' }, { field: 'csv', content: contacts }, { apiKey });
    expect(response.status).toBe(429);
    expect(response.body.results.code).toBe('PLATFORM_RATE_LIMITED');
    const retryAfter = Number(response.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(24 * 60 * 60);
    expect(await upstreamRequestsWith('professional', token)).toHaveLength(3);
  });

  it('creates once for a retried Idempotency-Key', async () => {
    const { userId, token } = await professionalUser();
    const headers = { 'idempotency-key': randomUUID() };
    const first = await upload(PATH, { userId, type: 'USER_LIST_UPLOAD' }, { field: 'csv', content: contacts }, { apiKey, headers });
    const retry = await upload(PATH, { userId, type: 'USER_LIST_UPLOAD' }, { field: 'csv', content: contacts }, { apiKey, headers });
    expect(retry.body).toEqual(first.body);
    expect(await upstreamRequestsWith('professional', token)).toHaveLength(4);
  });
});

describe('create_csv_audience: bad requests → 400, nothing sent upstream', () => {
  const cases: Array<[string, Record<string, string>, string, RegExp]> = [
    ['the other type’s headers', { type: 'USER_LIST_UPLOAD' }, companies, /are those of COMPANY_LIST_UPLOAD, not of USER_LIST_UPLOAD/],
    ['contacts for a company list', { type: 'COMPANY_LIST_UPLOAD' }, contacts, /are those of USER_LIST_UPLOAD, not of COMPANY_LIST_UPLOAD/],
    ['an unknown column', { type: 'USER_LIST_UPLOAD' }, 'email,phone\na@example.com,1\n', /does not take: phone/],
    ['a header only', { type: 'USER_LIST_UPLOAD' }, 'email,firstname\n', /header but no data rows/],
    [
      'no usable row',
      { type: 'COMPANY_LIST_UPLOAD' },
      'companyname,city\n,Austin\n',
      /None of the 1 rows can be used; for example line 2: companyname is empty/,
    ],
    ['an unterminated quote', { type: 'USER_LIST_UPLOAD' }, 'email,firstname\n"a@example.com,Ann\n', /never closed/],
    ['a missing type', {}, contacts, /type/],
    ['an unknown type', { type: 'CONTACT_LIST_UPLOAD' }, contacts, /type/],
    ['a mode other than create', { type: 'USER_LIST_UPLOAD', mode: 'append' }, contacts, /mode/],
  ];

  it.each(cases)('%s', async (_label, fields, content, sentence) => {
    const { userId, token } = await professionalUser();
    const response = await upload(PATH, { userId, ...fields }, { field: 'csv', content }, { apiKey });
    expect(response.status).toBe(400);
    expect(response.body.results.code).toBe('INVALID_REQUEST');
    expect(response.body.results.error).toMatch(sentence);
    expect(await upstreamRequestsWith('professional', token)).toEqual([]);
  });

  it('a user without a professional connection → 409', async () => {
    const userId = await newUser(apiKey, {});
    const response = await upload(PATH, { userId, type: 'USER_LIST_UPLOAD' }, { field: 'csv', content: contacts }, { apiKey });
    expect(response.status).toBe(409);
    expect(response.body.results.code).toBe('PLATFORM_NOT_CONNECTED');
  });

  it('a JSON body without an uploadId → 400 naming it; another type → 415', async () => {
    const response = await call(PATH, { userId: 'demo-user', type: 'USER_LIST_UPLOAD' }, { apiKey });
    expect(response.status).toBe(400);
    expect(response.body.results.details).toContainEqual({ path: 'uploadId', message: expect.any(String) });
    expect((await call(PATH, undefined, { apiKey, raw: 'x', headers: { 'content-type': 'text/csv' } })).status).toBe(415);
  });
});
