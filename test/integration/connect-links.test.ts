import { clock } from '../../shared/core/clock.ts';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, newTenant, newUser, stack } from '../helpers/api.ts';
import { BrowserSession, connectThroughLink, createLink, type Person, type Platform } from '../helpers/connect.ts';
import { eventually } from '../helpers/eventually.ts';
import { upstreamRequestCount, upstreamRequests } from '../helpers/sandbox.ts';
import { scriptedServer, webhookEvents } from '../helpers/scripted-server.ts';

/**
 * Connect links (docs/decisions.md "Connect links") over HTTP against the sandboxes' consent screens, as a
 * person's browser follows them: every hop, the redirect back, what reached each platform, and what
 * the tenant then sees.
 */
const REDIRECT = 'https://app.example.com/connected';
let receiver: Awaited<ReturnType<typeof scriptedServer>>;
let apiKey = '';
beforeAll(async () => {
  receiver = await scriptedServer(() => ({ status: 200 }));
  apiKey = await newTenant();
  await call('/tenant/update_settings', { redirectUris: [REDIRECT, 'http://127.0.0.1:9/other'], webhook: { url: `${receiver.url}/events` } }, { apiKey });
});
afterAll(() => receiver.close());

const profileOf = async (userId: string, key = apiKey) => (await call('/users/get_profile', { userId }, { apiKey: key })).body.results.user;
const outcomeOf = (url: URL) => Object.fromEntries(url.searchParams);
const eventsFor = (userId: string) => webhookEvents(receiver.received).filter((event) => event.data.userId === userId);
/** Requests a sandbox received since `since` (the recording is in arrival order). */
const requestsSince = (platform: Platform, since: number) => upstreamRequests(platform, since);
/** a distinct upstream identity for a test that revokes its grant (the seeded people are shared by every test) */
const tag = () => randomBytes(6).toString('hex');
const recordedCount = (platform: Platform) => upstreamRequestCount(platform);
/** The tokens a sandbox issued to these people (tagged people are this test's own). */
async function tokensOf(platform: Platform, people: string[]): Promise<string[]> {
  const tokens: string[] = [];
  for (const person of people)
    tokens.push(
      ...((await (await fetch(`${stack().sandboxes[platform]}/__sandbox/tokens?person=${encodeURIComponent(person)}`)).json()) as { tokens: string[] }).tokens,
    );
  expect(tokens.length).toBeGreaterThan(0);
  return tokens;
}

/** The requests since `since` that carried one of these markers, as it is or form-encoded (other files' requests run beside). */
const requestsCarrying = async (platform: Platform, since: number, markers: string[]) => {
  const forms = markers.flatMap((marker) => [marker, encodeURIComponent(marker)]);
  return (await requestsSince(platform, since)).filter((request) => forms.some((form) => JSON.stringify(request).includes(form)));
};

/** The requests since `since` made with a token the platform issued to one of these people. */
const requestsWithTokensOf = async (platform: Platform, since: number, people: string[]) => requestsCarrying(platform, since, await tokensOf(platform, people));

/** The requests since `since` of one grant: its code's exchange (the code our callback received) and every call with a token issued for it. */
async function requestsOfGrant(platform: Platform, since: number, person: string, callbackUrl: URL) {
  const code = callbackUrl.searchParams.get('code');
  expect(code).toBeTruthy();
  return requestsCarrying(platform, since, [code as string, ...(await tokensOf(platform, [person]))]);
}

describe('create_link', () => {
  it('answers a link on this API valid 24 hours', async () => {
    const userId = await newUser(apiKey);
    const created = await call('/auth/create_link', { userId, platform: 'social', redirectUri: REDIRECT, state: 'xyz' }, { apiKey });
    expect(created.status).toBe(200);
    expect(created.body.results.link).toMatch(new RegExp(`^${stack().url}/auth/connect/[A-Za-z0-9_-]{24}$`));
    expect(created.body.results.expiresAt - Date.now()).toBeGreaterThan(23.9 * 3_600_000);
  });

  it('refuses a redirect URI not on the tenant’s list, compared as an exact string', async () => {
    const userId = await newUser(apiKey);
    for (const redirectUri of [`${REDIRECT}/`, `${REDIRECT}?x=1`, 'https://APP.example.com/connected', 'https://evil.example/connected']) {
      const refused = await call('/auth/create_link', { userId, platform: 'social', redirectUri }, { apiKey });
      expect(refused.status).toBe(400);
      expect(refused.body.results).toMatchObject({ code: 'INVALID_REQUEST', details: [{ path: 'redirectUri' }] });
    }
  });

  it('refuses an unknown platform, a state over 512 characters, and a user of another tenant', async () => {
    const userId = await newUser(apiKey);
    expect((await call('/auth/create_link', { userId, platform: 'tiktok', redirectUri: REDIRECT }, { apiKey })).status).toBe(400);
    expect((await call('/auth/create_link', { userId, platform: 'social', redirectUri: REDIRECT, state: 'x'.repeat(513) }, { apiKey })).status).toBe(400);
    const otherKey = await newTenant();
    const stranger = await call('/auth/create_link', { userId, platform: 'social', redirectUri: REDIRECT }, { apiKey: otherKey });
    expect(stranger.status).toBe(404);
    expect((await call('/auth/create_link', { userId, platform: 'social', redirectUri: REDIRECT }, { apiKey: null })).status).toBe(401);
  });
});

describe('a whole connection, for each platform', () => {
  it('social: consent with our app id and the permissions, the code and long-lived exchanges, the account and its Page stored', async () => {
    const userId = await newUser(apiKey);
    const since = await recordedCount('social');
    const person: Person = `ana+${tag()}`;
    const { outcome, consentUrl, browser, callbackUrl } = await connectThroughLink({
      apiKey,
      userId,
      platform: 'social',
      redirectUri: REDIRECT,
      person,
      state: 'tenant-state',
    });
    expect(outcomeOf(outcome)).toEqual({ status: 'connected', platform: 'social', userId, state: 'tenant-state' });
    expect(`${outcome.origin}${outcome.pathname}`).toBe(REDIRECT);
    expect(Object.fromEntries(consentUrl.searchParams)).toEqual({
      client_id: stack().env.SOCIAL_APP_ID,
      redirect_uri: `${stack().url}/auth/callback/social`,
      state: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      response_type: 'code',
      scope:
        'ads_management,ads_read,business_management,pages_show_list,pages_read_engagement,pages_manage_ads,instagram_basic,leads_retrieval,pages_manage_metadata',
    });
    const start = browser.hops[0];
    expect(start?.status).toBe(302);
    // this grant's requests (other files' connections and refreshes run beside it)
    const upstream = await requestsOfGrant('social', since, person, callbackUrl);
    const exchanges = upstream.filter((request) => request.path.endsWith('/oauth/access_token'));
    expect(exchanges.map((request) => request.query)).toEqual([
      {
        client_id: stack().env.SOCIAL_APP_ID,
        client_secret: stack().env.SOCIAL_APP_SECRET,
        redirect_uri: `${stack().url}/auth/callback/social`,
        code: expect.stringMatching(/^AQ/),
      },
      {
        client_id: stack().env.SOCIAL_APP_ID,
        client_secret: stack().env.SOCIAL_APP_SECRET,
        grant_type: 'fb_exchange_token',
        fb_exchange_token: expect.stringMatching(/^EAA/),
      },
    ]);
    expect(upstream.some((request) => request.path.endsWith('/me/adaccounts'))).toBe(true);
    const connection = (await profileOf(userId)).connections.social;
    expect(connection).toEqual({
      status: 'active',
      connectedVia: 'link',
      connectedAt: expect.any(String),
      expiresAt: expect.any(String),
      scopes: expect.arrayContaining(['ads_management', 'pages_manage_ads']),
      adAccountId: '284756109384756',
      pageId: '104857392018465',
      photoAccountId: '17841400000000001',
    });
    expect((Date.parse(connection.expiresAt) - Date.now()) / 86_400_000).toBeGreaterThan(55);
    // the connection works: an operation on it reaches the platform with the new token
    const media = await call('/social/get_ad_account_media', { userId, type: 'IMAGE' }, { apiKey });
    expect(media.body.results.success).toBe(true);
  });

  it('search ads: PKCE S256, offline access and consent, the verifier in the exchange, the OpenID subject, no expiry', async () => {
    const userId = await newUser(apiKey);
    const since = await recordedCount('searchads');
    const person: Person = `ana+${tag()}`;
    const { outcome, consentUrl, callbackUrl } = await connectThroughLink({ apiKey, userId, platform: 'searchads', redirectUri: REDIRECT, person });
    expect(outcomeOf(outcome)).toEqual({ status: 'connected', platform: 'searchads', userId });
    const consent = Object.fromEntries(consentUrl.searchParams);
    expect(consent).toMatchObject({
      client_id: stack().env.SEARCHADS_CLIENT_ID,
      redirect_uri: `${stack().url}/auth/callback/searchads`,
      response_type: 'code',
      scope: 'openid email https://www.googleapis.com/auth/adwords https://www.googleapis.com/auth/datamanager',
      access_type: 'offline',
      prompt: 'consent',
      code_challenge_method: 'S256',
      code_challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    });
    expect(consentUrl.search).toContain('scope=openid%20email%20https');
    const exchange = (await requestsOfGrant('searchads', since, person, callbackUrl)).find(
      (request) => request.path === '/token' && request.body.includes('grant_type=authorization_code'),
    );
    const form = Object.fromEntries(new URLSearchParams(exchange?.body));
    expect(form).toEqual({
      grant_type: 'authorization_code',
      client_id: stack().env.SEARCHADS_CLIENT_ID,
      client_secret: stack().env.SEARCHADS_CLIENT_SECRET,
      code: expect.stringMatching(/^4\/0A/),
      redirect_uri: `${stack().url}/auth/callback/searchads`,
      code_verifier: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    });
    const { createHash } = await import('node:crypto');
    expect(
      createHash('sha256')
        .update(form.code_verifier as string)
        .digest('base64url'),
    ).toBe(consent.code_challenge);
    const connection = (await profileOf(userId)).connections.searchads;
    expect(connection).toMatchObject({ status: 'active', connectedVia: 'link', customerId: '1234567890' });
    expect(connection).not.toHaveProperty('expiresAt');
    expect(connection).not.toHaveProperty('loginCustomerId');
  });

  it('professional: the constant scope set, the exchange, the member’s usable account, a 60-day expiry', async () => {
    const userId = await newUser(apiKey);
    const since = await recordedCount('professional');
    const person: Person = `ana+${tag()}`;
    const { outcome, consentUrl, callbackUrl } = await connectThroughLink({ apiKey, userId, platform: 'professional', redirectUri: REDIRECT, person });
    expect(outcomeOf(outcome)).toEqual({ status: 'connected', platform: 'professional', userId });
    expect(Object.fromEntries(consentUrl.searchParams)).toEqual({
      response_type: 'code',
      client_id: stack().env.PROFESSIONAL_CLIENT_ID,
      redirect_uri: `${stack().url}/auth/callback/professional`,
      state: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      scope: 'r_ads rw_ads rw_dmp_segments r_ads_reporting w_organization_social r_marketing_leadgen_automation rw_conversions',
    });
    const upstream = await requestsOfGrant('professional', since, person, callbackUrl);
    const exchange = upstream.find((request) => request.path === '/oauth/v2/accessToken');
    expect(Object.fromEntries(new URLSearchParams(exchange?.body))).toEqual({
      grant_type: 'authorization_code',
      client_id: stack().env.PROFESSIONAL_CLIENT_ID,
      client_secret: stack().env.PROFESSIONAL_CLIENT_SECRET,
      code: expect.stringMatching(/^AQT/),
      redirect_uri: `${stack().url}/auth/callback/professional`,
    });
    const listing = upstream.find((request) => request.path === '/rest/adAccountUsers');
    expect(listing?.headers).toMatchObject({ 'linkedin-version': expect.stringMatching(/^\d{6}$/), 'x-restli-protocol-version': '2.0.0' });
    const connection = (await profileOf(userId)).connections.professional;
    expect(connection).toMatchObject({
      status: 'active',
      connectedVia: 'link',
      adAccountId: '500000001',
      scopes: ['r_ads', 'rw_ads', 'rw_dmp_segments', 'r_ads_reporting', 'w_organization_social', 'r_marketing_leadgen_automation', 'rw_conversions'],
    });
    expect(Math.round((Date.parse(connection.expiresAt) - Date.now()) / 86_400_000)).toBe(60);
  });

  it('sends connection.connected to the tenant’s webhook', async () => {
    const userId = await newUser(apiKey);
    await connectThroughLink({ apiKey, userId, platform: 'professional', redirectUri: REDIRECT, person: 'ana' });
    const events = await eventually(async () => (eventsFor(userId).length > 0 ? eventsFor(userId) : undefined));
    expect(events).toEqual([{ type: 'connection.connected', timestamp: expect.any(String), data: { userId, platform: 'professional', status: 'active' } }]);
  });
});

describe('several accounts: the picker', () => {
  it('social: lists usable accounts and advertising Pages, stores the choice', async () => {
    const userId = await newUser(apiKey);
    const { outcome, browser } = await connectThroughLink({
      apiKey,
      userId,
      platform: 'social',
      redirectUri: REDIRECT,
      person: 'ben',
      choose: { accountId: '384756109384757', pageId: '204857392018466' },
    });
    expect(outcomeOf(outcome)).toMatchObject({ status: 'connected' });
    const picker = browser.hops.find((hop) => hop.method === 'GET' && hop.url.includes('/auth/select/'));
    expect(picker?.body).toContain('Trailhead Outdoor US');
    expect(picker?.body).toMatch(/value="484756109384758" disabled/); // disabled account
    expect(picker?.body).toMatch(/value="584756109384759" disabled/); // analyst only
    expect(picker?.body).not.toContain('304857392018467'); // a Page without the ADVERTISE task
    const connection = (await profileOf(userId)).connections.social;
    expect(connection).toMatchObject({ adAccountId: '384756109384757', pageId: '204857392018466' });
    expect(connection).not.toHaveProperty('photoAccountId');
  });

  it('search ads: client accounts under managers, stored with the root manager as loginCustomerId', async () => {
    const userId = await newUser(apiKey);
    const since = await recordedCount('searchads');
    const person: Person = `ben+${tag()}`;
    const { callbackUrl } = await connectThroughLink({
      apiKey,
      userId,
      platform: 'searchads',
      redirectUri: REDIRECT,
      person,
      choose: { accountId: '3456789012' },
    });
    expect((await profileOf(userId)).connections.searchads).toMatchObject({ customerId: '3456789012', loginCustomerId: '9876543210' });
    const upstream = await requestsOfGrant('searchads', since, person, callbackUrl);
    const clientQueries = upstream.filter((request) => request.path.endsWith('googleAds:search') && request.body.includes('FROM customer_client'));
    expect(clientQueries.map((request) => [request.path, request.headers['login-customer-id']])).toEqual([
      ['/v26/customers/9876543210/googleAds:search', '9876543210'],
      ['/v26/customers/8765432100/googleAds:search', '9876543210'],
    ]);
    expect(upstream.find((request) => request.path.endsWith(':listAccessibleCustomers'))?.headers['login-customer-id']).toBeUndefined();
  });

  it('professional: a viewer role and a cancelled account are not selectable; a forged choice is refused and nothing is stored', async () => {
    const userId = await newUser(apiKey);
    const browser = new BrowserSession();
    const link = await createLink(apiKey, { userId, platform: 'professional', redirectUri: REDIRECT });
    const start = await browser.request(link);
    const callback = await browser.consent(start.location as string, 'ben');
    const toPicker = await browser.request(callback.location as string);
    const pickerUrl = toPicker.location as string;
    expect(pickerUrl).toMatch(/\/auth\/select\/[A-Za-z0-9_-]{24}$/);
    const page = await browser.request(pickerUrl);
    expect(page.status).toBe(200);
    expect(page.body).toMatch(/value="500000003" disabled/);
    for (const accountId of ['500000003', '500000004', '999']) {
      const refused = await browser.request(pickerUrl, { form: { accountId } });
      expect(refused.status).toBe(400);
      expect(refused.body).toContain('Choose one of the available ad accounts');
    }
    expect((await profileOf(userId)).connections).toEqual({});
    const chosen = await browser.request(pickerUrl, { form: { accountId: '500000002' } });
    expect(outcomeOf(new URL(chosen.location as string))).toMatchObject({ status: 'connected' });
    expect((await profileOf(userId)).connections.professional).toMatchObject({ adAccountId: '500000002' });
    // the choice is made once
    const again = await browser.request(pickerUrl, { form: { accountId: '500000001' } });
    expect(outcomeOf(new URL(again.location as string))).toMatchObject({ status: 'error', error: 'expired' });
    expect((await profileOf(userId)).connections.professional).toMatchObject({ adAccountId: '500000002' });
  });

  it('the picker belongs to the browser that started the link', async () => {
    const userId = await newUser(apiKey);
    const browser = new BrowserSession();
    const link = await createLink(apiKey, { userId, platform: 'searchads', redirectUri: REDIRECT });
    const start = await browser.request(link);
    const callback = await browser.consent(start.location as string, 'ben');
    const pickerUrl = (await browser.request(callback.location as string)).location as string;
    const stranger = new BrowserSession();
    expect((await stranger.request(pickerUrl)).status).toBe(400);
    const forged = await stranger.request(pickerUrl, { form: { accountId: '2345678901' } });
    expect(forged.status).toBe(400);
    expect(forged.location).toBeUndefined();
    expect((await profileOf(userId)).connections).toEqual({});
  });
});

describe('hostile browsers', () => {
  it('a picker post that is not a small form, or is malformed, is a 400 page and changes nothing; a giant state is refused', async () => {
    const userId = await newUser(apiKey);
    const browser = new BrowserSession();
    const link = await createLink(apiKey, { userId, platform: 'professional', redirectUri: REDIRECT });
    const callback = await browser.consent((await browser.request(link)).location as string, 'ben');
    const pickerUrl = (await browser.request(callback.location as string)).location as string;
    const cookie = `connect_binding=${(await import('node:crypto')).randomBytes(32).toString('base64url')}`;
    const post = (body: string | Buffer, type: string) =>
      fetch(pickerUrl, { method: 'POST', redirect: 'manual', headers: { 'content-type': type, cookie }, body });
    for (const [body, type] of [
      ['{"accountId":"500000001"}', 'application/json'],
      [`accountId=${'9'.repeat(20_000)}`, 'application/x-www-form-urlencoded'],
      ['accountId=%E0%A4%A&pageId=%', 'application/x-www-form-urlencoded'],
      [Buffer.from([0xff, 0xfe, 0x00, 0x41]), 'application/x-www-form-urlencoded'],
    ] as const) {
      const answer = await post(body, type);
      expect(answer.status).toBe(400);
      expect(answer.headers.get('location')).toBeNull();
      expect(answer.headers.get('content-type')).toMatch(/^text\/html/);
    }
    // the person's own browser, posting nonsense, is shown the picker again
    const mangled = await browser.request(pickerUrl, { form: { accountId: '%E0%A4%A', pageId: '<script>' } });
    expect(mangled.status).toBe(400);
    expect(mangled.body).not.toContain('<script>');
    expect((await profileOf(userId)).connections).toEqual({});
    const giant = await browser.request(`${stack().url}/auth/callback/professional?code=x&state=${'a'.repeat(5_000)}`);
    expect(giant.status).toBe(400);
  });
});

describe('what goes back when it does not connect', () => {
  it.each(['social', 'searchads', 'professional'] as const)('%s: a denial is access_denied, and nothing is stored', async (platform) => {
    const userId = await newUser(apiKey);
    const { outcome } = await connectThroughLink({ apiKey, userId, platform, redirectUri: REDIRECT, person: 'ana', decision: 'deny', state: 's1' });
    expect(outcomeOf(outcome)).toEqual({ status: 'error', error: 'access_denied', platform, userId, state: 's1' });
    expect((await profileOf(userId)).connections).toEqual({});
  });

  it.each(['social', 'searchads', 'professional'] as const)('%s: a person with no usable ad account is no_ad_account', async (platform) => {
    const userId = await newUser(apiKey);
    const { outcome } = await connectThroughLink({ apiKey, userId, platform, redirectUri: REDIRECT, person: 'cam' });
    expect(outcomeOf(outcome)).toEqual({ status: 'error', error: 'no_ad_account', platform, userId });
    expect((await profileOf(userId)).connections).toEqual({});
  });

  it('a platform error on the exchange is platform_error, with no upstream message in the URL', async () => {
    const userId = await newUser(apiKey);
    const browser = new BrowserSession();
    const link = await createLink(apiKey, { userId, platform: 'professional', redirectUri: REDIRECT });
    const start = await browser.request(link);
    const callback = await browser.consent(start.location as string, 'ana');
    const { injectFault } = await import('../helpers/sandbox.ts');
    const code = new URL(callback.location as string).searchParams.get('code') as string;
    await injectFault('professional', {
      requestIncludes: code,
      status: 503,
      body: { error: 'temporarily_unavailable', error_description: 'SECRET upstream detail' },
    });
    const back = await browser.request(callback.location as string);
    expect(outcomeOf(new URL(back.location as string))).toEqual({ status: 'error', error: 'platform_error', platform: 'professional', userId });
    expect(back.location).not.toMatch(/SECRET|temporarily/);
  });

  it('an error the platform names without a denial (a refused scope) is platform_error', async () => {
    const userId = await newUser(apiKey);
    const browser = new BrowserSession();
    const link = await createLink(apiKey, { userId, platform: 'professional', redirectUri: REDIRECT });
    const start = new URL((await browser.request(link)).location as string);
    const callback = `${stack().url}/auth/callback/professional?error=unauthorized_scope_error&error_description=${encodeURIComponent('<b>Scope</b> not authorized')}&state=${start.searchParams.get('state')}`;
    const back = await browser.request(callback);
    expect(outcomeOf(new URL(back.location as string))).toEqual({ status: 'error', error: 'platform_error', platform: 'professional', userId });
  });
});

describe('state, codes and browsers', () => {
  it('a state is spent by its first callback: a replay is expired and exchanges nothing', async () => {
    const userId = await newUser(apiKey);
    const { browser, callbackUrl } = await connectThroughLink({ apiKey, userId, platform: 'searchads', redirectUri: REDIRECT, person: 'ana' });
    const exchanges = async () =>
      (await upstreamRequests('searchads')).filter((request) => request.body.includes(encodeURIComponent(callbackUrl.searchParams.get('code') as string)))
        .length;
    expect(await exchanges()).toBe(1);
    const replay = await browser.request(callbackUrl.href);
    expect(outcomeOf(new URL(replay.location as string))).toEqual({ status: 'error', error: 'expired', platform: 'searchads', userId });
    expect(await exchanges()).toBe(1);
    expect((await profileOf(userId)).connections.searchads).toMatchObject({ status: 'active' });
  });

  it('a forged state, a missing state and a state at another platform’s callback get a plain 400 page, never a redirect', async () => {
    const userId = await newUser(apiKey);
    const browser = new BrowserSession();
    const link = await createLink(apiKey, { userId, platform: 'social', redirectUri: REDIRECT });
    const consent = new URL((await browser.request(link)).location as string);
    const state = consent.searchParams.get('state') as string;
    for (const url of [
      `${stack().url}/auth/callback/social?code=abc&state=${randomBytes(32).toString('base64url')}`,
      `${stack().url}/auth/callback/social?code=abc`,
      `${stack().url}/auth/callback/searchads?code=abc&state=${state}`,
      `${stack().url}/auth/callback/tiktok?code=abc&state=${state}`,
    ]) {
      const answer = await browser.request(url);
      expect(answer.status).toBe(400);
      expect(answer.location).toBeUndefined();
      expect(answer.body).toContain('cannot be tied to a connect link');
    }
  });

  it('a state used from a browser other than the one that opened the link (another tenant’s person) is refused and connects no one', async () => {
    const otherKey = await newTenant();
    await call('/tenant/update_settings', { redirectUris: [REDIRECT] }, { apiKey: otherKey });
    const victim = await newUser(apiKey);
    const attacker = await newUser(otherKey);
    // the attacker starts a link of their own tenant and gets a code for their account…
    const attackerBrowser = new BrowserSession();
    const attackerLink = await createLink(otherKey, { userId: attacker, platform: 'professional', redirectUri: REDIRECT });
    const attackerConsent = await attackerBrowser.consent((await attackerBrowser.request(attackerLink)).location as string, 'ana');
    // …and makes the victim's browser (which opened the victim's link) deliver it
    const victimBrowser = new BrowserSession();
    const victimLink = await createLink(apiKey, { userId: victim, platform: 'professional', redirectUri: REDIRECT });
    await victimBrowser.request(victimLink);
    const answer = await victimBrowser.request(attackerConsent.location as string);
    expect(answer.status).toBe(400);
    expect(answer.location).toBeUndefined();
    expect((await profileOf(victim)).connections).toEqual({});
    expect((await profileOf(attacker, otherKey)).connections).toEqual({});
  });

  it('a code already exchanged is refused by the platform: expired, nothing stored', async () => {
    const first = await newUser(apiKey);
    const { callbackUrl } = await connectThroughLink({ apiKey, userId: first, platform: 'social', redirectUri: REDIRECT, person: 'ana' });
    const userId = await newUser(apiKey);
    const browser = new BrowserSession();
    const link = await createLink(apiKey, { userId, platform: 'social', redirectUri: REDIRECT });
    const state = new URL((await browser.request(link)).location as string).searchParams.get('state') as string;
    const back = await browser.request(`${stack().url}/auth/callback/social?code=${callbackUrl.searchParams.get('code')}&state=${state}`);
    expect(outcomeOf(new URL(back.location as string))).toEqual({ status: 'error', error: 'expired', platform: 'social', userId });
    expect((await profileOf(userId)).connections).toEqual({});
  });

  it('a link completes once', async () => {
    const userId = await newUser(apiKey);
    const browser = new BrowserSession();
    const link = await createLink(apiKey, { userId, platform: 'professional', redirectUri: REDIRECT, state: 'once' });
    const consent = await browser.consent((await browser.request(link)).location as string, 'ana');
    await browser.request(consent.location as string);
    const again = await browser.request(link);
    expect(outcomeOf(new URL(again.location as string))).toEqual({ status: 'error', error: 'expired', platform: 'professional', userId, state: 'once' });
    expect((await new BrowserSession().request(`${stack().url}/auth/connect/unknownlinkid000000000000`)).status).toBe(400);
  });

  it('a client state with special characters comes back byte for byte', async () => {
    const userId = await newUser(apiKey);
    const state = `a b+c&d=e/f?g#h%20i ü 😀 "'<>`;
    const { outcome } = await connectThroughLink({ apiKey, userId, platform: 'professional', redirectUri: REDIRECT, person: 'ana', state });
    expect(outcome.searchParams.get('state')).toBe(state);
  });

  it('answers carry the binding cookie HttpOnly and SameSite=Lax, and pages are never cached nor referred', async () => {
    const userId = await newUser(apiKey);
    const link = await createLink(apiKey, { userId, platform: 'social', redirectUri: REDIRECT });
    const response = await fetch(link, { redirect: 'manual' });
    expect(response.status).toBe(302);
    expect(response.headers.getSetCookie()[0]).toMatch(/^connect_binding=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Lax$/);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
  });
});

describe('reconnect and disconnect', () => {
  it('a reconnect replaces the connection and revokes nothing', async () => {
    const userId = await newUser(apiKey);
    const ana: Person = `ana+${tag()}`;
    const ben: Person = `ben+${tag()}`;
    await connectThroughLink({ apiKey, userId, platform: 'social', redirectUri: REDIRECT, person: ana });
    const before = (await profileOf(userId)).connections.social;
    const since = await recordedCount('social');
    await connectThroughLink({
      apiKey,
      userId,
      platform: 'social',
      redirectUri: REDIRECT,
      person: ben,
      choose: { accountId: '384756109384757', pageId: '104857392018465' },
    });
    const after = (await profileOf(userId)).connections.social;
    expect(after).toMatchObject({ adAccountId: '384756109384757', connectedVia: 'link' });
    expect(Date.parse(after.connectedAt)).toBeGreaterThanOrEqual(Date.parse(before.connectedAt));
    // what this user's grants sent (other files' requests run beside it)
    const deletions = (await requestsWithTokensOf('social', since, [ana, ben])).filter((request) => request.method === 'DELETE');
    expect(deletions).toEqual([]);
  });

  it('a disconnect revokes a linked search-ads grant upstream, after which the platform refuses it', async () => {
    const userId = await newUser(apiKey);
    const since = await recordedCount('searchads');
    const ana: Person = `ana+${tag()}`;
    await connectThroughLink({ apiKey, userId, platform: 'searchads', redirectUri: REDIRECT, person: ana });
    const exchange = (await requestsSince('searchads', since)).find((request) => request.body.includes('grant_type=authorization_code'));
    expect(exchange).toBeDefined();
    const disconnected = await call('/users/disconnect', { userId, platform: 'searchads' }, { apiKey });
    expect(disconnected.body.results).toMatchObject({ success: true, status: 'disconnected' });
    // what this user's grant sent (other files' disconnects run beside it)
    const revocations = (await requestsWithTokensOf('searchads', since, [ana])).filter((request) => request.path === '/revoke');
    expect(revocations).toHaveLength(1);
    const revoked = new URLSearchParams(revocations[0]?.body).get('token') as string;
    expect(revoked).toMatch(/^1\/\//);
    expect(revocations[0]?.query).toEqual({}); // the token rides in the body, never the URL
    const refresh = await fetch(`${stack().sandboxes.searchads}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: revoked,
        client_id: stack().env.SEARCHADS_CLIENT_ID as string,
        client_secret: stack().env.SEARCHADS_CLIENT_SECRET as string,
      }),
    });
    expect(await refresh.json()).toMatchObject({ error: 'invalid_grant' });
    expect((await profileOf(userId)).connections).toEqual({});
    expect(
      (await call('/searchads/get_search_ads_result', { userId, campaignId: '21234567890', startDate: clock.today(-10), endDate: clock.today(-9) }, { apiKey }))
        .body.results.code,
    ).toBe('PLATFORM_NOT_CONNECTED');
    const events = await eventually(async () => (eventsFor(userId).some((event) => event.type === 'connection.disconnected') ? eventsFor(userId) : undefined));
    expect(events.map((event) => event.type)).toEqual(['connection.connected', 'connection.disconnected']);
  });

  it('a grant shared by two connections is revoked only when the last one goes', async () => {
    const otherKey = await newTenant();
    await call('/tenant/update_settings', { redirectUris: [REDIRECT] }, { apiKey: otherKey });
    const first = await newUser(apiKey);
    const second = await newUser(otherKey);
    const since = await recordedCount('professional');
    const person = `ben+${tag()}` as const;
    await connectThroughLink({ apiKey, userId: first, platform: 'professional', redirectUri: REDIRECT, person, choose: { accountId: '500000001' } });
    await connectThroughLink({ apiKey: otherKey, userId: second, platform: 'professional', redirectUri: REDIRECT, person, choose: { accountId: '500000002' } });
    const revocations = async () => (await requestsWithTokensOf('professional', since, [person])).filter((request) => request.path === '/oauth/v2/revoke');
    await call('/users/disconnect', { userId: first, platform: 'professional' }, { apiKey });
    expect(await revocations()).toHaveLength(0);
    await call('/users/disconnect', { userId: second, platform: 'professional' }, { apiKey: otherKey });
    const [revocation] = await revocations();
    expect(Object.fromEntries(new URLSearchParams(revocation?.body))).toEqual({
      client_id: stack().env.PROFESSIONAL_CLIENT_ID,
      client_secret: stack().env.PROFESSIONAL_CLIENT_SECRET,
      token: expect.stringMatching(/^AQX/),
    });
  });

  it('a social disconnect removes the app’s permissions with the user token', async () => {
    const userId = await newUser(apiKey);
    const ben: Person = `ben+${tag()}`;
    const since = await recordedCount('social');
    await connectThroughLink({
      apiKey,
      userId,
      platform: 'social',
      redirectUri: REDIRECT,
      person: ben,
      choose: { accountId: '284756109384756', pageId: '204857392018466' },
    });
    await call('/users/disconnect', { userId, platform: 'social' }, { apiKey });
    const deletions = (await requestsWithTokensOf('social', since, [ben])).filter((request) => request.method === 'DELETE');
    expect(deletions.map((request) => request.path)).toEqual(['/v26.0/me/permissions']);
  });
});
