import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, newTenant, newUser, stack } from '../helpers/api.ts';
import { startChildStack } from '../helpers/child-stack.ts';
import { BrowserSession, createLink } from '../helpers/connect.ts';
import { PID_FILE } from '../../local/data-dir.ts';
import { eventually } from '../helpers/eventually.ts';
import { injectFault, upstreamRequestsWith } from '../helpers/sandbox.ts';
import { scriptedServer } from '../helpers/scripted-server.ts';
import { newSocialUser } from '../helpers/social.ts';
import { createUpload, putFile, uploaded } from '../helpers/uploads.ts';
import { Conflict } from '../../shared/core/errors.ts';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { documentStore, mainTableName } from '../../shared/store/client.ts';
import { findCompletedUpload } from '../../shared/uploads/direct-uploads.ts';
import { readStagedUpload, stageUpload } from '../../shared/storage/staging.ts';
import { attemptDelivery } from '../../shared/webhooks/deliver.ts';
import { keys } from '../../shared/store/keys.ts';

/**
 * What a hostile client found (concurrency, odd redirect URIs, hanging receivers, replaced files) and
 * what a newcomer met, each through the real local stack with real parallel requests.
 */
let receiver: Awaited<ReturnType<typeof scriptedServer>>;
let hanging: Awaited<ReturnType<typeof scriptedServer>>;
beforeAll(async () => {
  receiver = await scriptedServer(() => ({ status: 200 }));
  hanging = await scriptedServer(() => ({ status: 200, hang: true }));
});
afterAll(async () => {
  await receiver.close();
  await hanging.close();
});

const parallel = <T>(count: number, make: (index: number) => Promise<T>) => Promise.all(Array.from({ length: count }, (_, index) => make(index)));

describe('one upload starts one job', () => {
  it('10 concurrent starts of one upload, with different Idempotency-Keys or none, answer one job and create one audience upstream', async () => {
    const apiKey = await newTenant();
    const { userId, token } = await newSocialUser(apiKey);
    const uploadId = await uploaded(apiKey, userId, 'email\none@example.com\ntwo@example.com\n');
    const answers = await parallel(10, (index) =>
      call(
        '/social/create_social_csv_audience',
        { userId, audienceName: 'Once', uploadId },
        { apiKey, headers: index % 2 ? { 'idempotency-key': `key-${index}` } : {} },
      ),
    );
    for (const answer of answers) expect(answer.status, answer.text).toBe(200);
    const jobIds = new Set(answers.map((answer) => answer.body.results.jobId));
    expect(jobIds.size).toBe(1);
    expect(new Set(answers.map((answer) => answer.body.results.audienceId)).size).toBe(1);
    expect((await upstreamRequestsWith('social', token)).filter((request) => request.path.endsWith('/customaudiences'))).toHaveLength(1);

    const later = await call('/social/create_social_csv_audience', { userId, audienceName: 'Again', uploadId }, { apiKey });
    expect(later.body.results.jobId).toBe([...jobIds][0]);
    expect((await upstreamRequestsWith('social', token)).filter((request) => request.path.endsWith('/customaudiences'))).toHaveLength(1);
  });

  it('a start that the platform refused lets the upload go: a retry starts the job', async () => {
    const apiKey = await newTenant();
    const { userId, token } = await newSocialUser(apiKey);
    const uploadId = await uploaded(apiKey, userId, 'email\nretry@example.com\n');
    await injectFault('social', {
      requestIncludes: token,
      pathIncludes: '/customaudiences',
      status: 400,
      body: { error: { message: 'Invalid parameter', type: 'OAuthException', code: 100 } },
      times: 1,
    });
    const refused = await call('/social/create_social_csv_audience', { userId, audienceName: 'Retry', uploadId }, { apiKey });
    expect(refused.body.results).toMatchObject({ success: false, code: 'PLATFORM_REJECTED' });
    const retried = await call('/social/create_social_csv_audience', { userId, audienceName: 'Retry', uploadId }, { apiKey });
    expect(retried.body.results).toMatchObject({ success: true, status: 'running', jobId: expect.any(String) });
  });
});

describe('read-modify-writes never lose a concurrent change', () => {
  it('concurrent updates of different fields all stay, in every trial, and every answer is 200', async () => {
    for (let trial = 0; trial < 5; trial++) {
      const apiKey = await newTenant();
      const uris = [`https://app.example.com/trial-${trial}`];
      const [withUris, withHook] = await Promise.all([
        call('/tenant/update_settings', { redirectUris: uris }, { apiKey }),
        call('/tenant/update_settings', { webhook: { url: `${receiver.url}/trial` } }, { apiKey }),
      ]);
      expect([withUris.status, withHook.status]).toEqual([200, 200]);
      const { settings } = (await call('/tenant/get_settings', {}, { apiKey })).body.results;
      expect(settings).toMatchObject({ redirectUris: uris, webhook: { url: `${receiver.url}/trial` } });
    }
  });

  it('six concurrent first webhook sets answer one secret, and it is the one deliveries are signed with', async () => {
    const apiKey = await newTenant();
    const answers = await parallel(6, () => call('/tenant/update_settings', { webhook: { url: `${receiver.url}/first-set` } }, { apiKey }));
    for (const answer of answers) expect(answer.status, answer.text).toBe(200);
    const secrets = answers.map((answer) => answer.body.results.webhookSecret).filter(Boolean);
    expect(secrets).toHaveLength(1);
    await expectSignedWith(apiKey, secrets[0], '/first-set');
  });

  it('a secret rotation racing a redirect-URI change answers the secret that is stored, and keeps both changes', async () => {
    const apiKey = await newTenant();
    await call('/tenant/update_settings', { webhook: { url: `${receiver.url}/rotate-race` } }, { apiKey });
    const [rotated, uris] = await Promise.all([
      call('/tenant/update_settings', { rotateWebhookSecret: true }, { apiKey }),
      call('/tenant/update_settings', { redirectUris: ['https://app.example.com/race'] }, { apiKey }),
    ]);
    expect([rotated.status, uris.status]).toEqual([200, 200]);
    expect((await call('/tenant/get_settings', {}, { apiKey })).body.results.settings.redirectUris).toEqual(['https://app.example.com/race']);
    await expectSignedWith(apiKey, rotated.body.results.webhookSecret, '/rotate-race');
  });

  it('20 parallel history appends to one campaign: 20 entries, no 5xx', async () => {
    const apiKey = await newTenant();
    const userId = await newUser(apiKey);
    const answers = await parallel(20, (index) =>
      call(
        '/optimize_me/record_campaign_optimization',
        {
          userId,
          campaignId: 'c-parallel',
          campaignName: 'Parallel',
          platform: 'social',
          optimizationStatus: 'ACTIVE',
          startDate: 1_700_000_000_000,
          entry: { adId: `ad-${index}`, adSetId: 'set', headlines: [], primaryTexts: [], images: [], timestamp: 1_700_000_000_000 + index },
        },
        { apiKey },
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(200));
    const history = await call('/optimize_me/get_campaign_optimization_history', { userId, campaignId: 'c-parallel' }, { apiKey });
    expect(history.body.results.campaign.history.map((entry: { adId: string }) => entry.adId).sort()).toEqual(
      Array.from({ length: 20 }, (_, index) => `ad-${index}`).sort(),
    );
    expect(history.body.results.campaign.timestamp).toBe(1_700_000_000_019);
  });
});

/** A test event reaches the receiver signed with `secret`. */
async function expectSignedWith(apiKey: string, secret: string, path: string): Promise<void> {
  const sent = await call('/tenant/send_test_webhook', {}, { apiKey });
  const id = sent.body.results.event.id as string;
  const delivery = await eventually(async () => receiver.received.find((request) => request.headers['webhook-id'] === id), 15_000, `delivery of ${id}`);
  expect(delivery.url).toBe(path);
  expect(() => new Webhook(secret).verify(delivery.body, delivery.headers as Record<string, string>)).not.toThrow();
}

describe('reconnect notices', () => {
  it('connection.reconnect_required reaches the receiver without waiting for the sweep', async () => {
    const apiKey = await newTenant();
    await call('/tenant/update_settings', { webhook: { url: `${receiver.url}/reconnect-now` } }, { apiKey });
    const { userId, token } = await newSocialUser(apiKey);
    await injectFault('social', {
      requestIncludes: token,
      status: 400,
      body: { error: { message: 'Error validating access token: Session has expired', type: 'OAuthException', code: 190, error_subcode: 463 } },
      times: 1,
    });
    const answer = await call('/social/get_campaigns_list', { userId }, { apiKey });
    expect(answer.body.results).toMatchObject({ success: false, code: 'PLATFORM_AUTH_EXPIRED' });
    // no sweep runs here: the event was queued with the call (the sweep's own wait is minutes)
    const delivery = await eventually(async () => receiver.received.find((request) => request.url === '/reconnect-now'), 10_000, 'the reconnect notice');
    expect(JSON.parse(delivery.body)).toMatchObject({
      type: 'connection.reconnect_required',
      data: { userId, platform: 'social', status: 'reconnect_required' },
    });
  });
});

describe('fair webhook delivery', () => {
  it('another tenant’s event is delivered while one tenant’s receiver hangs on ten events, before any of them ends', async () => {
    const slow = await newTenant();
    await call('/tenant/update_settings', { webhook: { url: `${hanging.url}/hang` } }, { apiKey: slow });
    await parallel(10, () => call('/tenant/send_test_webhook', {}, { apiKey: slow }));
    await eventually(async () => (hanging.received.length >= 4 ? true : undefined), 10_000, 'the slow receiver to be called');

    const other = await newTenant();
    await call('/tenant/update_settings', { webhook: { url: `${receiver.url}/fair` } }, { apiKey: other });
    const id = (await call('/tenant/send_test_webhook', {}, { apiKey: other })).body.results.event.id as string;
    await eventually(async () => receiver.received.find((request) => request.headers['webhook-id'] === id), 10_000, 'the other tenant’s event');
    // the slow tenant's attempts were all still hanging: the other event did not wait for any of them
    const slowEvents = (await call('/tenant/list_webhook_events', {}, { apiKey: slow })).body.results.events as Array<{ attempts: number }>;
    expect(slowEvents.filter((event) => event.attempts > 0).length).toBeLessThan(slowEvents.length);
  });

  it('send_test_webhook is limited per tenant: the 11th in a minute is 429 with Retry-After, other tenants unaffected', async () => {
    const apiKey = await newTenant();
    await call('/tenant/update_settings', { webhook: { url: `${receiver.url}/limited` } }, { apiKey });
    const answers = await parallel(11, () => call('/tenant/send_test_webhook', {}, { apiKey }));
    const limited = answers.filter((answer) => answer.status === 429);
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(10);
    expect(limited).toHaveLength(1);
    expect(limited[0]?.body.results).toMatchObject({ success: false, code: 'RATE_LIMITED' });
    expect(Number(limited[0]?.headers.get('retry-after'))).toBeGreaterThan(0);
    const other = await newTenant();
    await call('/tenant/update_settings', { webhook: { url: `${receiver.url}/limited` } }, { apiKey: other });
    expect((await call('/tenant/send_test_webhook', {}, { apiKey: other })).status).toBe(200);
  });
});

describe('files and markers', () => {
  it('a staged file replaced after it was checked is a clear CONFLICT, never read', async () => {
    const apiKey = await newTenant();
    const userId = await newUser(apiKey);
    const first = 'email\nfirst.version@example.com';
    const ticket = await createUpload(apiKey, userId, first.length);
    expect((await putFile(ticket, first)).status).toBe(200);
    const upload = await findCompletedUpload(await tenantOf(apiKey), userId, ticket.uploadId);
    expect(upload.etag).toBeTruthy();
    await stageUpload(upload.objectKey, Buffer.from('email\nother.version@example.com'));
    await expect(readStagedUpload(upload.objectKey, 0, upload.etag)).rejects.toBeInstanceOf(Conflict);
  });

  it('the local S3 refuses a request without a signature', async () => {
    const endpoint = stack().env.AWS_ENDPOINT_URL_S3 as string;
    const listing = await fetch(`${endpoint}/${stack().env.UPLOAD_BUCKET}?list-type=2`);
    expect(listing.status).toBe(403);
    const overwrite = await fetch(`${endpoint}/${stack().env.UPLOAD_BUCKET}/uploads/x.csv`, { method: 'PUT', body: 'email\nx@example.com' });
    expect(overwrite.status).toBe(403);
  });

  it('a message naming an event that was never stored sends nothing and writes nothing', async () => {
    const ref = { tenantId: `orphan-${Date.now()}`, sk: keys.webhookEvent(1, `msg_orphan${Date.now()}`) };
    expect(await attemptDelivery(ref)).toEqual({});
    const { Item } = await documentStore().send(new GetCommand({ TableName: mainTableName(), Key: { pk: keys.webhookEventsPk(ref.tenantId), sk: ref.sk } }));
    expect(Item).toBeUndefined();
  });
});

/** The tenant id behind an API key, as the store knows it. */
async function tenantOf(apiKey: string): Promise<string> {
  const { findTenantIdByKeyHash, hashApiKey } = await import('../../shared/store/api-key-lookup.ts');
  return (await findTenantIdByKeyHash(hashApiKey(apiKey))) as string;
}

describe('bad input a newcomer or a hostile client sends', () => {
  it('400 for an unknown key in connections, and no user is made', async () => {
    const apiKey = await newTenant();
    const answer = await call('/users/create_user', { userId: 'typo', connections: { socail: { accessToken: 'x', adAccountId: '1' } } }, { apiKey });
    expect(answer.status).toBe(400);
    expect(answer.body.results.details).toEqual(expect.arrayContaining([expect.objectContaining({ path: 'connections' })]));
    expect((await call('/users/get_profile', { userId: 'typo' }, { apiKey })).status).toBe(404);
  });

  it.each(['.', '..', 'a/b', 'tab\there'])('400 for the userId %j', async (userId) => {
    const answer = await call('/users/create_user', { userId, connections: {} }, { apiKey: await newTenant() });
    expect(answer.status).toBe(400);
    expect(answer.body.results.details[0].path).toBe('userId');
  });

  it('JSON with a UTF-8 byte order mark is read', async () => {
    const apiKey = await newTenant();
    const answer = await call('/users/create_user', undefined, {
      apiKey,
      raw: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(JSON.stringify({ userId: 'bom-user', connections: {} }))]),
    });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.results.userId).toBe('bom-user');
  });

  it('a JSON body too large for a function is a 413 that speaks of JSON, not of files', async () => {
    const answer = await call('/users/get_profile', undefined, { raw: JSON.stringify({ userId: 'x', pad: 'y'.repeat(6 * 1024 * 1024) }) });
    expect(answer.status).toBe(413);
    expect(answer.body.results.error).not.toMatch(/multipart|file of at most/);
    expect(answer.body.results.error).toMatch(/request body/);
  });

  it('GET / points to the reference', async () => {
    const answer = await fetch(`${stack().url}/`);
    expect(answer.status).toBe(404);
    expect(((await answer.json()) as { results: { error: string } }).results.error).toContain('/docs');
  });
});

describe('odd redirect URIs and callbacks that are not the browser’s own', () => {
  it.each([
    ['a non-ASCII host', 'https://bücher.example/cb'],
    ['CR/LF', 'https://app.example.com/cb\r\nSet-Cookie: x=1'],
    ['a control character', 'https://app.example.com/c\u0007b'],
    ['a space', 'https://app.example.com/c b'],
    ['userinfo', 'https://user@app.example.com/cb'],
    ['plain http to a public host', 'http://app.example.com/cb'],
    ['over 2,048 characters', `https://app.example.com/${'a'.repeat(2048)}`],
  ])('update_settings refuses a redirect URI with %s, and keeps the settings as they were', async (_label, uri) => {
    const apiKey = await newTenant();
    await call('/tenant/update_settings', { redirectUris: ['https://app.example.com/ok'] }, { apiKey });
    const answer = await call('/tenant/update_settings', { redirectUris: [uri] }, { apiKey });
    expect(answer.status).toBe(400);
    expect(answer.body.results.details[0].path).toMatch(/^redirectUris/);
    expect((await call('/tenant/get_settings', {}, { apiKey })).body.results.settings.redirectUris).toEqual(['https://app.example.com/ok']);
  });

  it('accepts an international host in its punycode form', async () => {
    const answer = await call('/tenant/update_settings', { redirectUris: ['https://xn--bcher-kva.example/cb'] }, { apiKey: await newTenant() });
    expect(answer.status, answer.text).toBe(200);
  });

  /** A link followed to the platform's consent and back to our callback URL, not yet opened. */
  async function atCallback(apiKey: string, redirectUri: string): Promise<{ browser: BrowserSession; callback: string; userId: string }> {
    await call('/tenant/update_settings', { redirectUris: [redirectUri] }, { apiKey });
    const userId = await newUser(apiKey);
    const browser = new BrowserSession();
    const start = await browser.request(await createLink(apiKey, { userId, platform: 'professional', redirectUri }));
    const consented = await browser.consent(start.location as string, 'ana');
    return { browser, callback: consented.location as string, userId };
  }

  it('a callback from another browser is refused without spending the state: the person’s own browser still connects', async () => {
    const apiKey = await newTenant();
    const { browser, callback, userId } = await atCallback(apiKey, 'https://app.example.com/other-browser');
    const stranger = await new BrowserSession().request(callback);
    expect(stranger.status).toBe(400);
    expect(stranger.location).toBeUndefined();
    const own = await browser.request(callback);
    expect(own.status).toBe(302);
    expect(new URL(own.location as string).searchParams.get('status')).toBe('connected');
    expect((await call('/users/get_profile', { userId }, { apiKey })).body.results.user.connections.professional).toBeTruthy();
  });

  it('a redirect URI the tenant removed since the link was made: a page, nothing connected, nothing spent', async () => {
    const apiKey = await newTenant();
    const { browser, callback, userId } = await atCallback(apiKey, 'https://app.example.com/removed');
    await call('/tenant/update_settings', { redirectUris: ['https://app.example.com/another'] }, { apiKey });
    const removed = await browser.request(callback);
    expect(removed.status).toBe(400);
    expect(removed.location).toBeUndefined();
    expect((await call('/users/get_profile', { userId }, { apiKey })).body.results.user.connections.professional).toBeUndefined();
    // put back, the same callback still completes: it was not spent
    await call('/tenant/update_settings', { redirectUris: ['https://app.example.com/removed'] }, { apiKey });
    expect(new URL((await browser.request(callback)).location as string).searchParams.get('status')).toBe('connected');
  });
});

describe('the local stack', () => {
  /** The local addresses of the listening TCP sockets on `port` (Linux's /proc/net/tcp and tcp6). */
  function listenersOn(port: number): string[] {
    const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
    return ['/proc/net/tcp', '/proc/net/tcp6']
      .flatMap((file) => readFileSync(file, 'utf8').split('\n').slice(1))
      .map((line) => line.trim().split(/\s+/))
      .filter((fields) => fields[3] === '0A' && fields[1]?.endsWith(`:${hexPort}`))
      .map((fields) => (fields[1] as string).split(':')[0] as string);
  }

  it('every local server listens on 127.0.0.1 only', () => {
    const { env, url, webhookReceiverUrl, sandboxes } = stack();
    const urls = [
      url,
      webhookReceiverUrl,
      env.AWS_ENDPOINT_URL_SQS,
      env.AWS_ENDPOINT_URL_S3,
      env.AWS_ENDPOINT_URL_DYNAMODB,
      ...Object.values(sandboxes),
    ] as string[];
    for (const each of urls) expect(listenersOn(Number(new URL(each).port)), each).toEqual(['0100007F']);
  });

  it('SIGTERM stops the stack and removes its pid file', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'sigterm-'));
    try {
      const child = await startChildStack(dataDir, 'sigterm-key-000000000000000000000');
      expect(existsSync(join(dataDir, PID_FILE))).toBe(true);
      expect(await child.stop('SIGTERM'), child.output()).toBe(0);
      expect(existsSync(join(dataDir, PID_FILE))).toBe(false);
      await expect(fetch(`${child.url}/docs`)).rejects.toThrow();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
