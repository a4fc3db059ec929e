import { createHash, randomBytes, randomInt } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { findTenantIdByKeyHash, hashApiKey } from '../../shared/store/api-key-lookup.ts';
import { call, newTenant, newUser, stack } from '../helpers/api.ts';
import { injectFault, stackNow, upstreamRequests, upstreamRequestsWith, withdrawLeftoverFaults } from '../helpers/sandbox.ts';
import { scriptedServer } from '../helpers/scripted-server.ts';
import { jobToEnd } from '../helpers/uploads.ts';

/**
 * /conversions/send against the local stack (docs/conversions.md, "Sending CRM events"): CRM contacts'
 * events planned, hashed, staged and sent by a `conversions` job to the three platforms' sandboxes in
 * batches, each event once per destination, refusals split until the refused event is alone, and
 * every bad input refused whole before anything is stored or sent.
 */
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
let receiver: Awaited<ReturnType<typeof scriptedServer>>;
let apiKey = '';
beforeAll(async () => {
  receiver = await scriptedServer(() => ({ status: 200 }));
  apiKey = await newTenant();
  await findTenantIdByKeyHash(hashApiKey(apiKey));
  await call('/tenant/update_settings', { webhook: { url: `${receiver.url}/send` } }, { apiKey });
});
afterAll(() => receiver.close());
afterEach(withdrawLeftoverFaults);

const sandbox = async (platform: 'social' | 'professional' | 'searchads', path: string, body?: unknown) => {
  const response = await fetch(`${stack().sandboxes[platform]}/__sandbox/${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  expect(response.status).toBe(200);
  return response.json() as Promise<any>;
};

/** A user on accounts of its own on all three platforms, its funnel mapped to each: Qualified everywhere, Won on search ads only. */
async function funnelUser() {
  const marker = randomBytes(6).toString('hex');
  const socialAccount = String(randomInt(300_000_000_000_000, 399_999_999_999_999));
  const datasetId = `${randomInt(772_000_000, 772_999_999)}000001`;
  const customerId = String(randomInt(1_000_000_000, 6_999_999_999));
  const professionalAccount = String(randomInt(540_000_000, 549_999_999));
  const ruleId = String(randomInt(740_000_000, 749_999_999));
  await sandbox('social', 'datasets', { account: socialAccount, datasets: [{ id: datasetId, name: 'CRM', is_unavailable: false }] });
  await sandbox('professional', 'conversion-rules', {
    account: professionalAccount,
    rules: [{ id: Number(ruleId), name: 'SQL', conversionMethod: 'CONVERSIONS_API', enabled: true, type: 'SALES_QUALIFIED_LEAD' }],
  });
  const tokens = { social: `EAAsend${marker}`, searchads: `1//send-${marker}`, professional: `AQVsend${marker}` };
  const userId = await newUser(apiKey, {
    social: { accessToken: tokens.social, adAccountId: socialAccount },
    searchads: { refreshToken: tokens.searchads, customerId },
    professional: { accessToken: tokens.professional, adAccountId: professionalAccount },
  });
  const set = await call(
    '/conversions/set_stages',
    {
      userId,
      crmName: 'Salesforce',
      stages: [
        {
          stage: 'Qualified',
          social: { datasetId, eventName: 'QualifiedLead' },
          professional: { conversionRuleId: ruleId },
          searchads: { conversionActionId: '6543210987' },
        },
        { stage: 'Won', searchads: { conversionActionId: '6543210989' } },
      ],
    },
    { apiKey },
  );
  expect(set.status, set.text).toBe(200);
  return { userId, marker, datasetId, customerId, ruleId, tokens };
}

const isoDaysAgo = async (days: number) => new Date((await stackNow()) - days * 86_400_000).toISOString();
const send = (userId: string, events: unknown[], extra: Record<string, unknown> = {}) => call('/conversions/send', { userId, events, ...extra }, { apiKey });

async function sentJob(userId: string, events: unknown[]) {
  const sent = await send(userId, events);
  expect(sent.status, sent.text).toBe(202);
  const { job } = await jobToEnd(apiKey, sent.body.results.jobId, { timeoutMs: 120_000 });
  expect(job.status, JSON.stringify(job)).toBe('succeeded');
  return job;
}

const received = async (platform: 'social' | 'professional' | 'searchads') => (await sandbox(platform, 'conversions')) as any[];

describe('send', () => {
  it('sends each event to every platform its stage maps, hashed by each platform’s rules, and ends each one', async () => {
    const user = await funnelUser();
    const eventId = `crm_${user.marker}_1`;
    const job = await sentJob(user.userId, [
      {
        eventId,
        stage: 'qualified',
        occurredAt: await isoDaysAgo(1),
        user: { email: ' Avery.Lee@Gmail.com ', phone: '+1 (800) 555-0100', clickIds: { gclid: `Cj0KCQ${user.marker}_BwE`, liFatId: `li-${user.marker}` } },
        value: { amount: '120.00', currency: 'eur' },
        consent: { adUserData: 'CONSENT_GRANTED', adPersonalization: 'CONSENT_GRANTED' },
      },
    ]);
    expect(job.result).toEqual({
      events: 1,
      alreadySent: 0,
      platforms: { social: { delivered: 1 }, professional: { delivered: 1 }, searchads: { delivered: 1 } },
    });

    const social = (await received('social')).find((entry) => entry.event?.event_id === eventId);
    expect(social.event.user_data).toEqual({ em: [sha256('avery.lee@gmail.com')], ph: [sha256('18005550100')] });
    expect(social.event.event_name).toBe('QualifiedLead');
    expect(social.event.custom_data).toMatchObject({ event_source: 'crm', lead_event_source: 'Salesforce', value: 120, currency: 'eur' });
    const professional = (await received('professional')).find((entry) => JSON.stringify(entry).includes(eventId));
    expect(JSON.stringify(professional)).toContain(sha256('avery.lee@gmail.com'));
    expect(JSON.stringify(professional)).toContain(`li-${user.marker}`);
    const google = (await received('searchads')).find((entry) => entry.event.transactionId === eventId);
    expect(google.conversionActionId).toBe('6543210987');
    expect(google.customerId).toBe(user.customerId);
    // Google's gmail rule drops the dots; its phone is E.164 with its +
    expect(google.event.userData.userIdentifiers).toEqual([{ emailAddress: sha256('averylee@gmail.com') }, { phoneNumber: sha256('+18005550100') }]);
    expect(google.event).toMatchObject({ eventSource: 'OTHER', adIdentifiers: { gclid: `Cj0KCQ${user.marker}_BwE` }, conversionValue: 120, currency: 'EUR' });
    // nothing of the person in clear in any request
    for (const platform of ['social', 'professional', 'searchads'] as const)
      expect(JSON.stringify(await upstreamRequests(platform))).not.toContain('Avery.Lee');

    const got = await call('/conversions/get_event', { userId: user.userId, eventId }, { apiKey });
    expect(got.body.results.platforms.map((standing: any) => [standing.platform, standing.status]).sort()).toEqual([
      ['professional', 'delivered'],
      ['searchads', 'delivered'],
      ['social', 'delivered'],
    ]);
  });

  it('decides each event’s fate before sending: denied consent, too old for the platform, nothing to match', async () => {
    const user = await funnelUser();
    const id = (n: number) => `crm_${user.marker}_${n}`;
    const job = await sentJob(user.userId, [
      {
        eventId: id(1),
        stage: 'Qualified',
        occurredAt: await isoDaysAgo(1),
        user: { email: 'a@example.com' },
        consent: { adUserData: 'CONSENT_DENIED', adPersonalization: 'CONSENT_GRANTED' },
      },
      // 10 days: past the social window (7), within the others (90)
      { eventId: id(2), stage: 'Qualified', occurredAt: await isoDaysAgo(10), user: { email: 'b@example.com' } },
      // a postal code alone matches nothing anywhere
      { eventId: id(3), stage: 'Qualified', occurredAt: await isoDaysAgo(1), user: { postalCode: '10115' } },
      // 40 days: past the Won action's own click-through window (30 days)
      { eventId: id(4), stage: 'Won', occurredAt: await isoDaysAgo(40), user: { email: 'c@example.com' } },
    ]);
    expect(job.result.platforms).toEqual({
      social: { skipped_consent: 1, skipped_expired: 1, skipped_no_identifier: 1 },
      professional: { skipped_consent: 1, delivered: 1, skipped_no_identifier: 1 },
      searchads: { skipped_consent: 1, delivered: 1, skipped_no_identifier: 1, skipped_expired: 1 },
    });
    const all = JSON.stringify([...(await received('social')), ...(await received('professional')), ...(await received('searchads'))]);
    for (const skipped of [id(1), id(3), id(4)]) expect(all).not.toContain(skipped);
  });

  it('a repeated eventId keeps its first outcome and is never sent again, by a second call', async () => {
    const user = await funnelUser();
    const event = { eventId: `crm_${user.marker}_r`, stage: 'Won', occurredAt: await isoDaysAgo(1), user: { email: 'r@example.com' } };
    await sentJob(user.userId, [event]);
    const again = await sentJob(user.userId, [event]);
    expect(again.result).toEqual({ events: 1, alreadySent: 1, platforms: { searchads: {} } });
    expect((await received('searchads')).filter((entry) => entry.event.transactionId === event.eventId)).toHaveLength(1);
  });

  it('a request refused for one event is split until that event is alone; the others are delivered', async () => {
    const user = await funnelUser();
    const occurredAt = await isoDaysAgo(1);
    const events = Array.from({ length: 6 }, (_, n) => ({
      eventId: `crm_${user.marker}_s${n}`,
      stage: 'Qualified',
      occurredAt,
      // the social platform refuses a whole request whose fbc looks like a digest
      user: n === 4 ? { clickIds: { fbc: sha256('not a click cookie') } } : { email: `s${n}@example.com` },
    }));
    const job = await sentJob(user.userId, events);
    expect(job.result.platforms.social).toEqual({ delivered: 5, rejected: 1 });
    const requests = (await upstreamRequests('social')).filter((request) => request.path.includes(`${user.datasetId}/events`));
    // 6 → 3 + 3 → the half with the bad one: 1 + 2 → 1 + 1
    expect(requests.length).toBeGreaterThanOrEqual(4);
    const bad = await call('/conversions/get_event', { userId: user.userId, eventId: `crm_${user.marker}_s4` }, { apiKey });
    const social = bad.body.results.platforms.find((standing: any) => standing.platform === 'social');
    expect(social).toMatchObject({ status: 'rejected', error: { code: 'PLATFORM_REJECTED' } });
    expect(JSON.stringify(bad.body)).not.toContain(sha256('not a click cookie'));
  });

  it('Google names the refused event: it ends alone, the rest go again in one request', async () => {
    const user = await funnelUser();
    const occurredAt = await isoDaysAgo(1);
    const events = Array.from({ length: 4 }, (_, n) => ({
      eventId: `crm_${user.marker}_g${n}`,
      stage: 'Won',
      occurredAt,
      // a gclid that looks like a digest is refused as INVALID_FORMAT, naming the event
      user: n === 2 ? { clickIds: { gclid: sha256('x') } } : { email: `g${n}@example.com` },
    }));
    const job = await sentJob(user.userId, events);
    expect(job.result.platforms.searchads).toEqual({ delivered: 3, rejected: 1 });
    const ingests = (await upstreamRequests('searchads')).filter(
      (request) => request.path.endsWith('/events:ingest') && JSON.stringify(request).includes(user.marker),
    );
    expect(ingests).toHaveLength(2);
  });

  it('a lost answer: the professional platform’s events end unknown and are not sent again; Google’s are sent again and counted once', async () => {
    const user = await funnelUser();
    const occurredAt = await isoDaysAgo(1);
    await injectFault('professional', { pathIncludes: '/conversionEvents', requestIncludes: user.marker, status: 504, body: {} });
    await injectFault('searchads', { pathIncludes: '/events:ingest', requestIncludes: user.marker, status: 503, body: {} });
    const eventId = `crm_${user.marker}_l`;
    const job = await sentJob(user.userId, [{ eventId, stage: 'Qualified', occurredAt, user: { email: `${user.marker}@example.com` } }]);
    expect(job.result.platforms.professional).toEqual({ unknown: 1 });
    expect(job.result.platforms.searchads).toEqual({ delivered: 1 });
    const professional = (await upstreamRequests('professional')).filter(
      (request) => request.path.includes('/conversionEvents') && JSON.stringify(request).includes(eventId),
    );
    expect(professional).toHaveLength(1);
  });
});

describe('validateOnly', () => {
  it('answers 200 with each event’s fate; nothing reaches the social or professional platform, Google is asked with its own validateOnly', async () => {
    const user = await funnelUser();
    const checked = await send(
      user.userId,
      [
        { eventId: `crm_${user.marker}_v1`, stage: 'Qualified', occurredAt: await isoDaysAgo(1), user: { email: 'v@example.com' } },
        { eventId: `crm_${user.marker}_v2`, stage: 'Won', occurredAt: await isoDaysAgo(1), user: { clickIds: { gclid: sha256('y') } } },
      ],
      { validateOnly: true },
    );
    expect(checked.status, checked.text).toBe(200);
    expect(checked.body.results.events).toEqual([
      {
        eventId: `crm_${user.marker}_v1`,
        platforms: [
          { platform: 'social', status: 'queued' },
          { platform: 'professional', status: 'queued' },
          { platform: 'searchads', status: 'queued' },
        ],
      },
      { eventId: `crm_${user.marker}_v2`, platforms: [{ platform: 'searchads', status: 'rejected', problems: ['INVALID_FORMAT'] }] },
    ]);
    // no write with the user's own tokens (other tests use the shared sandboxes at the same time; set_stages read the destinations)
    const writes = async (platform: 'social' | 'professional', token: string) =>
      (await upstreamRequestsWith(platform, token)).filter((request) => request.method === 'POST');
    expect(await writes('social', user.tokens.social)).toEqual([]);
    expect(await writes('professional', user.tokens.professional)).toEqual([]);
    expect(JSON.stringify(await received('searchads'))).not.toContain(`crm_${user.marker}_v`);
    const got = await call('/conversions/get_event', { userId: user.userId, eventId: `crm_${user.marker}_v1` }, { apiKey });
    expect(got.status).toBe(404);
  });
});

describe('bad input: refused whole, nothing stored or sent', () => {
  it('10,001 events, a repeated eventId, an unmapped stage, a time ahead, an eventId out of its alphabet', async () => {
    const user = await funnelUser();
    const one = (n: number) => ({ eventId: `e${n}`, stage: 'Won', occurredAt: '2026-01-01T00:00:00Z', user: { email: 'x@example.com' } });
    const tooMany = await send(
      user.userId,
      Array.from({ length: 10_001 }, (_, n) => one(n)),
    );
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.results.error).toContain('at most 10000 events');
    const repeated = await send(user.userId, [one(1), one(2), one(1)]);
    expect(repeated.status).toBe(400);
    expect(repeated.body.results.details).toContainEqual({ path: 'events.2.eventId', message: 'repeats the eventId of events[0]' });
    const unmapped = await send(user.userId, [{ ...one(1), stage: 'Lost' }]);
    expect(unmapped.status).toBe(400);
    expect(unmapped.body.results.code).toBe('STAGE_NOT_MAPPED');
    const ahead = await send(user.userId, [{ ...one(1), occurredAt: new Date((await stackNow()) + 3_600_000).toISOString() }]);
    expect(ahead.status).toBe(400);
    expect(ahead.body.results.details).toContainEqual({ path: 'events.0.occurredAt', message: 'must not be in the future' });
    const badId = await send(user.userId, [{ ...one(1), eventId: 'has space' }]);
    expect(badId.status).toBe(400);
    const listed = await call('/conversions/list_events', { userId: user.userId }, { apiKey });
    expect(listed.body.results.events).toEqual([]);
  });

  it('a platform the funnel maps but the user no longer connects: 409 PLATFORM_NOT_CONNECTED, nothing sent anywhere', async () => {
    const user = await funnelUser();
    const disconnected = await call('/users/disconnect', { userId: user.userId, platform: 'professional' }, { apiKey });
    expect(disconnected.status, disconnected.text).toBe(200);
    const eventId = `crm_${user.marker}_nc`;
    const refused = await send(user.userId, [{ eventId, stage: 'Qualified', occurredAt: await isoDaysAgo(1), user: { email: 'nc@example.com' } }]);
    expect(refused.status).toBe(409);
    expect(refused.body.results.code).toBe('PLATFORM_NOT_CONNECTED');
    expect(JSON.stringify(await received('social'))).not.toContain(eventId);
    expect((await call('/conversions/get_event', { userId: user.userId, eventId }, { apiKey })).status).toBe(404);
  });

  it('a platform disconnected while its job runs: its events end rejected PLATFORM_NOT_CONNECTED, the others are delivered', async () => {
    const user = await funnelUser();
    // the social request is held a moment: the professional connection goes meanwhile
    await injectFault('social', { pathIncludes: `${user.datasetId}/events`, requestIncludes: user.tokens.social, answerDelayMs: 2_000 });
    const eventId = `crm_${user.marker}_dc`;
    const sent = await send(user.userId, [{ eventId, stage: 'Qualified', occurredAt: await isoDaysAgo(1), user: { email: 'dc@example.com' } }]);
    expect(sent.status, sent.text).toBe(202);
    expect((await call('/users/disconnect', { userId: user.userId, platform: 'professional' }, { apiKey })).status).toBe(200);
    const { job } = await jobToEnd(apiKey, sent.body.results.jobId, { timeoutMs: 60_000 });
    expect(job.result.platforms).toMatchObject({ social: { delivered: 1 }, professional: { rejected: 1 }, searchads: { delivered: 1 } });
    const event = (await call('/conversions/get_event', { userId: user.userId, eventId }, { apiKey })).body.results;
    expect(event.platforms.find((standing: any) => standing.platform === 'professional')).toMatchObject({
      status: 'rejected',
      error: { code: 'PLATFORM_NOT_CONNECTED' },
    });
  });

  it('another tenant’s user is not found; another tenant cannot read this tenant’s events', async () => {
    const user = await funnelUser();
    const other = await newTenant();
    const event = { eventId: `crm_${user.marker}_t`, stage: 'Won', occurredAt: await isoDaysAgo(1), user: { email: 't@example.com' } };
    const foreign = await call('/conversions/send', { userId: user.userId, events: [event] }, { apiKey: other });
    expect(foreign.status).toBe(404);
    await sentJob(user.userId, [event]);
    const read = await call('/conversions/get_event', { userId: user.userId, eventId: event.eventId }, { apiKey: other });
    expect(read.status).toBe(404);
  });
});
