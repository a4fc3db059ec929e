import { createHash, randomBytes, randomInt } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { findTenantIdByKeyHash, hashApiKey } from '../../shared/store/api-key-lookup.ts';
import { saveLinkedConnection } from '../../shared/store/user-writes.ts';
import { findUser } from '../../shared/store/users.ts';
import { call, newTenant, newUser, stack, upload } from '../helpers/api.ts';
import { advanceStackClock, injectFault, stackNow, upstreamRequests, upstreamRequestCount } from '../helpers/sandbox.ts';
import { seedCampaigns } from '../helpers/scale.ts';
import { jobToEnd, uploaded } from '../helpers/uploads.ts';
import type { Context } from 'aws-lambda';
import { runJob } from '../../functions/use-cases/jobs/run-job.ts';
import { stagedObject, stagedUploadKey } from '../../shared/storage/staging.ts';
import { findJob } from '../../shared/store/jobs.ts';

/**
 * Contact lists into search-ads Customer Match lists through the Data Manager API
 * (docs/google-audiences.md), against the search-ads sandbox: the list made once, members hashed by
 * Google's rules and sent in order in requests of at most 10,000, each request followed to its end,
 * the counts at the end; partial and failed processing; replace; the scope.
 */
let apiKey = '';
beforeAll(async () => {
  apiKey = await newTenant();
});

const GRANTED = { adUserData: 'CONSENT_GRANTED', adPersonalization: 'CONSENT_GRANTED' };
const sha = (value: string) => createHash('sha256').update(value).digest('hex');

async function searchadsUser(refreshToken = `1//dm-${randomBytes(6).toString('hex')}`) {
  const customerId = String(randomInt(1_000_000_000, 6_999_999_999));
  const userId = await newUser(apiKey, { searchads: { refreshToken, customerId } });
  return { userId, customerId };
}

/** The Data Manager requests of one account, in the order they were made. */
async function dataManagerCalls(customerId: string, from: number) {
  return (await upstreamRequests('searchads', from)).filter(
    // a status read names no account (only its request id): it is never counted as this account's
    (request) =>
      request.path.startsWith('/v1/') &&
      !request.path.startsWith('/v1/requestStatus') &&
      (request.path.includes(`/accounts/${customerId}/`) || request.body.includes(`"accountId":"${customerId}"`)),
  );
}

const listsOf = async () =>
  (
    (await (
      await fetch(`${stack().sandboxes.searchads}/__sandbox/datamanager`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
    ).json()) as {
      lists: Array<{ customerId: string; id: string; displayName: string; members: number }>;
    }
  ).lists;

const start = (fields: Record<string, string>, csv: string) => upload('/searchads/create_csv_audience', fields, { field: 'csvFile', content: csv }, { apiKey });

// small lists, ten jobs at once; the large list and the injected outage run after them, alone
describe.concurrent('POST /searchads/create_csv_audience', () => {
  it('makes the list once, sends Google-hashed members, follows the request, and ends with the counts', async () => {
    const { userId, customerId } = await searchadsUser();
    const from = await upstreamRequestCount('searchads');
    const csv = [
      'email,phone,first_name,last_name,country,zip',
      ' Avery.Lindqvist@Example.COM ,+1 (800) 555-0100,,,,',
      'Jordan.Mills+ads@GMail.com,,,,,',
      'dana.moreno@example.org,,Dana,Moreno Jr.,us,94043',
      'not-an-email,not a phone,,,,',
    ].join('\n');
    const answer = await start({ userId, audienceName: 'Newsletter', mode: 'create', consent: JSON.stringify(GRANTED) }, csv);
    expect(answer.status, answer.text).toBe(200);
    const { audienceId, jobId, status } = answer.body.results;
    expect(audienceId).toMatch(/^aud_[0-9a-f]{24}$/);
    expect(status).toBe('queued');
    const { job } = await jobToEnd(apiKey, jobId);
    expect(job).toMatchObject({ type: 'searchads_audience', status: 'succeeded' });
    expect(job.result).toEqual({
      audienceId,
      userListId: expect.stringMatching(/^\d+$/),
      received: 4,
      invalid: 1,
      matchRateRange: expect.stringMatching(/^MATCH_RATE_RANGE_/),
    });

    const calls = await dataManagerCalls(customerId, from);
    const creates = calls.filter((request) => request.method === 'POST' && request.path.endsWith('/userLists'));
    expect(creates).toHaveLength(1);
    expect(JSON.parse(creates[0]?.body ?? '{}')).toMatchObject({
      integrationCode: audienceId,
      displayName: `Newsletter (${audienceId})`,
      ingestedUserListInfo: { uploadKeyTypes: ['CONTACT_ID'] },
    });
    const ingests = calls.filter((request) => request.path === '/v1/audienceMembers:ingest');
    expect(ingests).toHaveLength(1);
    const body = JSON.parse(ingests[0]?.body ?? '{}');
    expect(body).toMatchObject({
      destinations: [{ operatingAccount: { accountType: 'GOOGLE_ADS', accountId: customerId }, productDestinationId: job.result.userListId }],
      consent: GRANTED,
      encoding: 'HEX',
      termsOfService: { customerMatchTermsOfServiceStatus: 'ACCEPTED' },
    });
    expect(body.audienceMembers).toEqual([
      { userData: { userIdentifiers: [{ emailAddress: sha('avery.lindqvist@example.com') }, { phoneNumber: sha('+18005550100') }] } },
      { userData: { userIdentifiers: [{ emailAddress: sha('jordanmills@gmail.com') }] } },
      {
        userData: {
          userIdentifiers: [
            { emailAddress: sha('dana.moreno@example.org') },
            { address: { givenName: sha('dana'), familyName: sha('moreno'), regionCode: 'US', postalCode: '94043' } },
          ],
        },
      },
    ]);
    expect(ingests[0]?.headers.authorization).toMatch(/^Bearer /);
    expect(ingests[0]?.headers['developer-token']).toBeUndefined();
    const statusReads = (await upstreamRequests('searchads', from)).filter((request) => request.path === '/v1/requestStatus:retrieve');
    expect(statusReads.length).toBeGreaterThan(0);

    // the same audience again: append takes its audienceId, and goes to the same list without making another
    const more = await start({ userId, audienceId, mode: 'append', consent: JSON.stringify(GRANTED) }, 'email\nnew.person@example.com\n');
    const appended = await jobToEnd(apiKey, more.body.results.jobId);
    expect(appended.job.result).toMatchObject({ audienceId, userListId: job.result.userListId, received: 1, invalid: 0 });
    expect((await dataManagerCalls(customerId, from)).filter((request) => request.method === 'POST' && request.path.endsWith('/userLists'))).toHaveLength(1);
    expect((await listsOf()).find((list) => list.id === job.result.userListId)?.members).toBe(4);
  }, 60_000);

  it('a request Google processes in part: the job succeeds with the refused members counted and named', async () => {
    const { userId } = await searchadsUser();
    const csv = [
      'email,first_name,last_name,country,zip',
      'ana@example.com,Ana,Weber,DE,10115',
      'bo@example.com,Bo,Lund,SE,11122',
      'cy@example.com,Cy,Hart,US,94043',
    ].join('\n');
    const denied = { adUserData: 'CONSENT_DENIED', adPersonalization: 'CONSENT_GRANTED' };
    const answer = await start({ userId, audienceName: 'Mixed consent', mode: 'create', consent: JSON.stringify(denied) }, csv);
    const { job } = await jobToEnd(apiKey, answer.body.results.jobId);
    expect(job.status).toBe('succeeded');
    expect(job.result).toMatchObject({ received: 3, invalid: 2, warnings: [expect.stringContaining('PROCESSING_ERROR_REASON_DENIED_CONSENT')] });
  }, 60_000);

  it('a request Google fails whole: the job fails and says why', async () => {
    const { userId } = await searchadsUser();
    const csv = ['email,first_name,last_name,country,zip', 'ana@example.com,Ana,Weber,DE,10115', 'bo@example.com,Bo,Lund,FR,75001'].join('\n');
    const answer = await start(
      { userId, audienceName: 'No consent', mode: 'create', consent: JSON.stringify({ adUserData: 'CONSENT_DENIED', adPersonalization: 'CONSENT_DENIED' }) },
      csv,
    );
    const { job } = await jobToEnd(apiKey, answer.body.results.jobId);
    expect(job.status).toBe('failed');
    expect(job.error).toMatchObject({ code: 'PLATFORM_REJECTED', message: expect.stringContaining('PROCESSING_ERROR_REASON_DENIED_CONSENT') });
  }, 60_000);

  it('replace adds the new members first, then removes what was there before: the list never empties', async () => {
    const { userId, customerId } = await searchadsUser();
    const created = await start(
      { userId, audienceName: 'Replace me', mode: 'create', consent: JSON.stringify(GRANTED) },
      'email\nold1@example.com\nold2@example.com\nkept@example.com\n',
    );
    const { job: first } = await jobToEnd(apiKey, created.body.results.jobId);
    const { audienceId } = created.body.results;
    // the replace comes a few seconds later: past the margin it leaves for clock skew (docs/google-audiences.md, "Replace")
    await advanceStackClock(5_000);
    const from = await upstreamRequestCount('searchads');
    const replaced = await start({ userId, audienceId, mode: 'replace', consent: JSON.stringify(GRANTED) }, 'email\nkept@example.com\nnew@example.com\n');
    const { job } = await jobToEnd(apiKey, replaced.body.results.jobId);
    expect(job).toMatchObject({ status: 'succeeded', result: { audienceId, userListId: first.result.userListId, received: 2 } });
    const writes = (await dataManagerCalls(customerId, from)).filter((request) => request.method === 'POST').map((request) => request.path);
    expect(writes).toEqual(['/v1/audienceMembers:ingest', '/v1/audienceMembers:removeAll']);
    const removeAll = (await dataManagerCalls(customerId, from)).find((request) => request.path === '/v1/audienceMembers:removeAll');
    expect(Date.parse(JSON.parse(removeAll?.body ?? '{}').removeAsOfTime)).toBeLessThan(await stackNow());
    expect((await listsOf()).find((list) => list.id === first.result.userListId)?.members).toBe(2);
  }, 60_000);

  it('remove takes the members out', async () => {
    const { userId } = await searchadsUser();
    const created = await start(
      { userId, audienceName: 'Remove from me', mode: 'create', consent: JSON.stringify(GRANTED) },
      'email\na@example.com\nb@example.com\n',
    );
    const { job: first } = await jobToEnd(apiKey, created.body.results.jobId);
    const removed = await start(
      { userId, audienceId: created.body.results.audienceId, mode: 'remove', consent: JSON.stringify(GRANTED) },
      'email\nA@Example.com\n',
    );
    expect((await jobToEnd(apiKey, removed.body.results.jobId)).job.status).toBe('succeeded');
    expect((await listsOf()).find((list) => list.id === first.result.userListId)?.members).toBe(1);
  }, 60_000);

  it('a connection without the Data Manager scope is SCOPE_MISSING, before anything is stored or sent', async () => {
    // connected through a link before the Data Manager scope was asked for: its grant names the scopes it has
    const { userId, customerId } = await searchadsUser();
    const tenantId = (await findTenantIdByKeyHash(hashApiKey(apiKey))) as string;
    const user = (await findUser(tenantId, userId)) as NonNullable<Awaited<ReturnType<typeof findUser>>>;
    await saveLinkedConnection(
      user,
      'searchads',
      { customerId, scopes: 'openid email https://www.googleapis.com/auth/adwords' },
      { refreshToken: `1//dm-${randomBytes(6).toString('hex')}` },
      { tenantId, action: 'connection.connected', target: { type: 'connection', id: 'searchads' } },
    );
    const from = await upstreamRequestCount('searchads');
    const answer = await start({ userId, audienceName: 'No scope', mode: 'create', consent: JSON.stringify(GRANTED) }, 'email\na@example.com\n');
    expect(answer.status).toBe(200);
    expect(answer.body.results).toMatchObject({ success: false, code: 'SCOPE_MISSING', scope: 'https://www.googleapis.com/auth/datamanager' });
    expect((await dataManagerCalls(customerId, from)).map((request) => `${request.method} ${request.path}`)).toEqual([]);
    // a grant Google itself finds lacking (given as a raw token): the job ends SCOPE_MISSING at its first call
    const { userId: raw } = await searchadsUser(`1//ADS_ONLY-${randomBytes(6).toString('hex')}`);
    const started = await start({ userId: raw, audienceName: 'Ads only', mode: 'create', consent: JSON.stringify(GRANTED) }, 'email\na@example.com\n');
    const { job } = await jobToEnd(apiKey, started.body.results.jobId);
    expect(job).toMatchObject({ status: 'failed', error: { code: 'SCOPE_MISSING' } });
  }, 60_000);

  it('an account blocked until its campaigns are declared: the job fails EU_POLITICAL_DECLARATION_REQUIRED, naming them', async () => {
    const { userId, customerId } = await searchadsUser();
    const [campaignId] = await seedCampaigns('searchads', customerId, 1);
    await fetch(`${stack().sandboxes.searchads}/__sandbox/undeclared`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ customerId, campaignIds: [campaignId] }),
    });
    const answer = await start({ userId, audienceName: 'Blocked', mode: 'create', consent: JSON.stringify(GRANTED) }, 'email\na@example.com\n');
    const { job } = await jobToEnd(apiKey, answer.body.results.jobId);
    expect(job).toMatchObject({ status: 'failed', error: { code: 'EU_POLITICAL_DECLARATION_REQUIRED', message: expect.stringContaining(String(campaignId)) } });
  }, 60_000);

  it('refuses what it cannot take, with a detail per problem and nothing started', async () => {
    const { userId } = await searchadsUser();
    const cases: Array<[Record<string, string>, string[]]> = [
      [{ userId, audienceName: 'x', mode: 'create' }, ['consent']],
      [{ userId, audienceName: 'x', mode: 'create', consent: '{"adUserData":"YES"}' }, ['consent.adPersonalization', 'consent.adUserData']],
      [{ userId, mode: 'create', consent: JSON.stringify(GRANTED) }, ['audienceName']],
      [{ userId, mode: 'append', consent: JSON.stringify(GRANTED) }, ['audienceId']],
      [{ userId, mode: 'append', audienceId: 'list-1', consent: JSON.stringify(GRANTED) }, ['audienceId']],
    ];
    for (const [fields, paths] of cases) {
      const answer = await start(fields, 'email\na@example.com\n');
      expect(answer.status, JSON.stringify(fields)).toBe(400);
      expect(answer.body.results.details.map((detail: { path: string }) => detail.path).sort(), JSON.stringify(fields)).toEqual(paths);
    }
    const unknown = await start({ userId, mode: 'append', audienceId: `aud_${'0'.repeat(24)}`, consent: JSON.stringify(GRANTED) }, 'email\na@example.com\n');
    expect(unknown.status).toBe(404);
  });
});

describe('a large list, and an outage', () => {
  it('sends a list of any size from an upload in order, 10,000 members a request', async () => {
    const { userId, customerId } = await searchadsUser();
    const rows = Array.from({ length: 25_000 }, (_, index) => `person${index}@example.com`);
    const uploadId = await uploaded(apiKey, userId, `email\n${rows.join('\n')}\n`);
    const from = await upstreamRequestCount('searchads');
    const answer = await call('/searchads/create_csv_audience', { userId, audienceName: 'Big list', mode: 'create', consent: GRANTED, uploadId }, { apiKey });
    expect(answer.status, answer.text).toBe(200);
    const { job } = await jobToEnd(apiKey, answer.body.results.jobId);
    expect(job.result).toMatchObject({ received: 25_000, invalid: 0 });
    expect(job.progress).toMatchObject({ rowsSent: 25_000, batchesSent: 3 });
    const ingests = (await dataManagerCalls(customerId, from)).filter((request) => request.path === '/v1/audienceMembers:ingest');
    const sizes = ingests.map((request) => JSON.parse(request.body).audienceMembers.length);
    expect(sizes).toEqual([10_000, 10_000, 5_000]);
    expect(JSON.parse(ingests[2]?.body ?? '{}').audienceMembers.at(-1)).toEqual({
      userData: { userIdentifiers: [{ emailAddress: sha('person24999@example.com') }] },
    });
  }, 60_000);

  it('an outage on a request is retried at once (Google takes the same members again without harm)', async () => {
    const { userId, customerId } = await searchadsUser();
    await injectFault('searchads', {
      requestIncludes: [customerId, 'audienceMembers'],
      pathIncludes: 'audienceMembers:ingest',
      status: 503,
      times: 1,
      body: { error: { code: 503, status: 'UNAVAILABLE' } },
    });
    const from = await upstreamRequestCount('searchads');
    const answer = await start({ userId, audienceName: 'Flaky', mode: 'create', consent: JSON.stringify(GRANTED) }, 'email\na@example.com\nb@example.com\n');
    const { job } = await jobToEnd(apiKey, answer.body.results.jobId);
    expect(job).toMatchObject({ status: 'succeeded', result: { received: 2, invalid: 0 } });
    expect((await dataManagerCalls(customerId, from)).filter((request) => request.path === '/v1/audienceMembers:ingest')).toHaveLength(2);
  }, 60_000);
});

describe('what a hostile client found on the search-ads route', () => {
  const tenantIdOf = async () => (await findTenantIdByKeyHash(hashApiKey(apiKey))) as string;
  const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('email\nana@example.com\n', 'utf16le')]);
  const badFiles: Array<[string, string | Buffer, RegExp]> = [
    ['a header only', 'email\n', /header but no data rows/],
    ['binary', Buffer.concat([Buffer.from('\x89PNG\r\n\x1a\n', 'latin1'), Buffer.alloc(64)]), /binary|UTF-8/],
    ['UTF-16', utf16, /binary|UTF-8/],
    ['a quote out of place', 'email\n"ana@example.com\nbo@example.com\n', /quote/],
    ['10,000 columns', `email,${Array.from({ length: 9_999 }, (_, index) => `c${index}`).join(',')}\nana@example.com\n`, /column|longer than/],
    ['a 3 MB cell', `email,first_name\nana@example.com,${'x'.repeat(3 * 1024 * 1024)}\n`, /longer than|goes on past/],
    ['no usable row', 'email\nnot-an-email\n', /None of the 1 rows can be used/],
  ];

  it.each(badFiles)('%s is a 400 before anything is sent, in both forms: no list is made in the account', async (_name, content, why) => {
    const { userId, customerId } = await searchadsUser();
    const from = await upstreamRequestCount('searchads');
    const inBody = await start({ userId, audienceName: 'Bad file', mode: 'create', consent: JSON.stringify(GRANTED) }, content as string);
    expect(inBody.status, inBody.text).toBe(400);
    expect(inBody.body.results.code).toBe('INVALID_REQUEST');
    expect(inBody.body.results.details).toEqual([{ path: 'file', message: expect.stringMatching(why) }]);
    const uploadId = await uploaded(apiKey, userId, content);
    const byUpload = await call('/searchads/create_csv_audience', { userId, audienceName: 'Bad file', mode: 'create', consent: GRANTED, uploadId }, { apiKey });
    expect(byUpload.status, byUpload.text).toBe(400);
    expect(byUpload.body.results.details).toEqual([{ path: 'file', message: expect.stringMatching(why) }]);
    expect(await dataManagerCalls(customerId, from)).toEqual([]);
    expect((await upstreamRequests('searchads', from)).filter((request) => request.body.includes(customerId))).toEqual([]);
    expect((await listsOf()).filter((list) => list.customerId === customerId)).toEqual([]);
  });

  it('a failed job’s contact file is deleted from the bucket, as a succeeded one’s is', async () => {
    const { userId } = await searchadsUser();
    const csv = ['email,first_name,last_name,country,zip', 'ana@example.com,Ana,Weber,DE,10115'].join('\n');
    const uploadId = await uploaded(apiKey, userId, csv);
    const denied = { adUserData: 'CONSENT_DENIED', adPersonalization: 'CONSENT_DENIED' };
    const answer = await call('/searchads/create_csv_audience', { userId, audienceName: 'Denied', mode: 'create', consent: denied, uploadId }, { apiKey });
    const { job } = await jobToEnd(apiKey, answer.body.results.jobId);
    expect(job.status).toBe('failed');
    expect(await stagedObject(stagedUploadKey(await tenantIdOf(), userId, uploadId))).toBeUndefined();
  }, 60_000);

  it('replaces of one list sent at once run one after the other: the list ends as one of the files, never their union', async () => {
    const { userId, customerId } = await searchadsUser();
    const made = await start({ userId, audienceName: 'Replaced thrice', mode: 'create', consent: JSON.stringify(GRANTED) }, 'email\nfirst@example.com\n');
    const { job: created } = await jobToEnd(apiKey, made.body.results.jobId);
    expect(created.status).toBe('succeeded');
    const audienceId = made.body.results.audienceId as string;
    const files = [2, 3, 4].map((size) => `email\n${Array.from({ length: size }, (_, index) => `r${size}-${index}@example.com`).join('\n')}\n`);
    const started = await Promise.all(files.map((csv) => start({ userId, audienceId, mode: 'replace', consent: JSON.stringify(GRANTED) }, csv)));
    const ended = await Promise.all(started.map((answer) => jobToEnd(apiKey, answer.body.results.jobId, { timeoutMs: 150_000 })));
    for (const { job } of ended) expect(job.status).toBe('succeeded');
    const [list] = (await listsOf()).filter((each) => each.customerId === customerId);
    expect([2, 3, 4]).toContain(list?.members);
    // and no two of them wrote at once: each job's requests (its ingest, its removeAll) came one job after another
    const writes = (await dataManagerCalls(customerId, 0)).filter((request) => /audienceMembers:(ingest|removeAll)$/.test(request.path));
    const owners = writes
      .slice(1)
      .map((request) => (request.path.endsWith('removeAll') ? 'removeAll' : String(JSON.parse(request.body).audienceMembers.length)));
    expect(owners).toHaveLength(6);
    for (let index = 0; index < 6; index += 2) expect([owners[index], owners[index + 1]]).toEqual([expect.stringMatching(/^[234]$/), 'removeAll']);
  }, 240_000);

  it('a job parked for Google’s daily quota waits until Google’s next day, whatever message reaches it before then', async () => {
    const { userId, customerId } = await searchadsUser();
    await injectFault('searchads', {
      requestIncludes: [customerId, 'audienceMembers'],
      pathIncludes: 'audienceMembers:ingest',
      status: 429,
      times: 1,
      body: {
        error: {
          code: 429,
          status: 'RESOURCE_EXHAUSTED',
          message: 'Quota exceeded.',
          details: [
            {
              '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
              reason: 'RATE_LIMIT_EXCEEDED',
              metadata: { quota_limit: 'IngestionWriteRequestsPerDayPerProject' },
            },
          ],
        },
      },
    });
    const answer = await start({ userId, audienceName: 'Daily quota', mode: 'create', consent: JSON.stringify(GRANTED) }, 'email\nana@example.com\n');
    const jobId = answer.body.results.jobId as string;
    const tenantId = await tenantIdOf();
    const parked = await expect.poll(async () => (await findJob(tenantId, jobId))?.resumeAt ?? 0).toBeGreaterThan(0);
    void parked;
    const resumeAt = (await findJob(tenantId, jobId))?.resumeAt as number;
    // Google's next day begins at midnight Pacific: more than a minute, at most a day and a minute, away
    expect(resumeAt - (await stackNow())).toBeGreaterThan(60_000);
    expect(resumeAt - (await stackNow())).toBeLessThanOrEqual(86_460_000);
    const from = await upstreamRequestCount('searchads');
    // the queue's redelivery after its longest delay (15 minutes), a restart's or a sweep's message: each finds the job parked
    for (let message = 0; message < 3; message++) await runJob({ tenantId, jobId }, { getRemainingTimeInMillis: () => 60_000 } as Context);
    expect(await dataManagerCalls(customerId, from)).toEqual([]);
    expect(await findJob(tenantId, jobId)).toMatchObject({ status: 'running', resumeAt });
  }, 60_000);
});
