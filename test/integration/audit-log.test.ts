import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { clock } from '../../shared/core/clock.ts';
import { scanItems } from '../../shared/store/client.ts';
import { findApiKey, hashApiKey } from '../../shared/store/api-key-lookup.ts';
import { call, newTenant, newUser, stack, upload } from '../helpers/api.ts';
import { connectThroughLink } from '../helpers/connect.ts';
import { validForm, winterCampaign } from '../helpers/examples.ts';
import { injectFault, stackNow } from '../helpers/sandbox.ts';
import { newSocialUser } from '../helpers/social.ts';
import { jobToEnd, uploaded } from '../helpers/uploads.ts';
import { eventually } from '../helpers/eventually.ts';
import { scriptedServer } from '../helpers/scripted-server.ts';

/**
 * The audit log from outside: each write operation leaves exactly one event with its actor, target and
 * outcome; a refusal by the platform is a `failed` event; reads and our own refusals leave none; no
 * event holds a secret or a contact value; tenants never see each other's events.
 */
const REDIRECT = 'https://app.example.com/connected';
const socialContacts = readFileSync(new URL('../../samples/social-contacts.csv', import.meta.url), 'utf8');
const professionalContacts = readFileSync(new URL('../../samples/professional-contacts.csv', import.meta.url), 'utf8');

interface AuditEvent {
  id: string;
  occurredAt: string;
  action: string;
  actor: { type: string; id: string };
  userId?: string;
  platform?: string;
  target: { type: string; id: string };
  changes?: Record<string, { from?: unknown; to?: unknown }>;
  outcome: string;
  error?: { code: string };
  requestId?: string;
  idempotencyKey?: string;
}

async function keyIdOf(apiKey: string): Promise<string> {
  return (await findApiKey(hashApiKey(apiKey)))?.keyId as string;
}

async function auditEvents(apiKey: string, filters: Record<string, unknown> = {}): Promise<AuditEvent[]> {
  const response = await call('/tenant/list_audit_events', filters, { apiKey });
  expect(response.status, response.text).toBe(200);
  return response.body.results.events;
}

/** The events a test's own calls made: those after `since` (the tenant is shared by the tests of a file). */
async function eventsSince(apiKey: string, since: string, filters: Record<string, unknown> = {}): Promise<AuditEvent[]> {
  return auditEvents(apiKey, { since, ...filters });
}

/** Every page of a listing. */
async function everyEvent(apiKey: string, filters: Record<string, unknown>): Promise<AuditEvent[]> {
  const events: AuditEvent[] = [];
  let pagination = '';
  do {
    const response = await call('/tenant/list_audit_events', { ...filters, pagination }, { apiKey });
    events.push(...response.body.results.events);
    pagination = response.body.results.paging.next ?? '';
  } while (pagination);
  return events;
}

/** The stack's time (other test files move its clock), a millisecond back: the events after it are a test's own. */
const now = async () => new Date((await stackNow()) - 1).toISOString();

let apiKey = '';
let keyId = '';
beforeAll(async () => {
  apiKey = await newTenant();
  keyId = await keyIdOf(apiKey);
  // the stack's clock runs ahead of this process's, as other files leave it: events carry the stack's time
  await fetch(`${stack().sandboxes.social}/__sandbox/clock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"advanceMs":60000}' });
});

describe('every write leaves one event', () => {
  it('create_user with tokens: user.created, the key’s id as actor, the platforms named, no token; a replay adds none', async () => {
    const since = await now();
    const token = `EAAaudit${randomBytes(8).toString('hex')}`;
    const headers = { 'idempotency-key': `audit-${randomUUID()}` };
    const body = { userId: `audit-${randomUUID()}`, connections: { social: { accessToken: token, adAccountId: '1234567890' } } };
    const first = await call('/users/create_user', body, { apiKey, headers });
    expect(first.status).toBe(200);
    await call('/users/create_user', body, { apiKey, headers });
    const events = await eventsSince(apiKey, since);
    expect(events).toEqual([
      {
        id: expect.stringMatching(/^aud_[0-9a-f]{24}$/),
        occurredAt: expect.any(String),
        action: 'user.created',
        actor: { type: 'api_key', id: keyId },
        userId: body.userId,
        target: { type: 'user', id: body.userId },
        changes: { connections: { to: ['social'] } },
        outcome: 'succeeded',
        requestId: first.headers.get('x-request-id'),
        idempotencyKey: headers['idempotency-key'],
      },
    ]);
    expect(keyId).toMatch(/^key_/);
    expect(JSON.stringify(events)).not.toContain(token);
    expect(JSON.stringify(events)).not.toContain(apiKey);
  });

  it('a request we refuse before any write (validation, a taken user id) and every read leave none', async () => {
    const userId = await newUser(apiKey);
    const since = await now();
    expect((await call('/users/create_user', { userId: '' }, { apiKey })).status).toBe(400);
    expect((await call('/users/create_user', { userId }, { apiKey })).status).toBe(409);
    await call('/users/get_profile', { userId }, { apiKey });
    await call('/tenant/get_settings', {}, { apiKey });
    await call('/tenant/list_audit_events', {}, { apiKey });
    await call('/tenant/list_webhook_events', {}, { apiKey });
    expect(await eventsSince(apiKey, since)).toEqual([]);
  });

  it('disconnect: connection.disconnected on the connection', async () => {
    const { userId } = await newSocialUser(apiKey);
    const since = await now();
    const response = await call('/users/disconnect', { userId, platform: 'social' }, { apiKey });
    expect(response.status).toBe(200);
    expect(await eventsSince(apiKey, since)).toMatchObject([
      {
        action: 'connection.disconnected',
        actor: { type: 'api_key', id: keyId },
        userId,
        platform: 'social',
        target: { type: 'connection', id: 'social' },
        outcome: 'succeeded',
      },
    ]);
  });

  it('a connection through a connect link: connection.connected, the link (a digest, never its value) as actor', async () => {
    await call('/tenant/update_settings', { redirectUris: [REDIRECT] }, { apiKey });
    const userId = await newUser(apiKey);
    const since = await now();
    const connected = await connectThroughLink({
      apiKey,
      userId,
      platform: 'professional',
      redirectUri: REDIRECT,
      person: 'ana',
      choose: { accountId: '500000001' },
    });
    expect(connected.outcome.searchParams.get('status')).toBe('connected');
    const events = await eventsSince(apiKey, since);
    // the link's creation by the API key, then the connection it made
    expect(events.map((event) => event.action)).toEqual(['connection.connected', 'connect_link.created']);
    expect(events).toMatchObject([
      {
        action: 'connection.connected',
        actor: { type: 'connect_link', id: expect.stringMatching(/^lnk_[\w-]{16}$/) },
        userId,
        platform: 'professional',
        target: { type: 'connection', id: 'professional' },
        outcome: 'succeeded',
      },
      // the link's digest names it in both events
      { action: 'connect_link.created', actor: { type: 'api_key' }, userId, target: { type: 'connect_link', id: events[0]?.actor.id } },
    ]);
    const linkValue = connected.consentUrl.toString();
    expect(JSON.stringify(events)).not.toContain(new URL(linkValue).searchParams.get('state') ?? 'no-state');
  });

  it('settings: settings.updated with what changed (URLs by name only); a rotation alone: webhook_secret.rotated; no secret anywhere', async () => {
    const since = await now();
    const receiver = await scriptedServer(() => ({ status: 200 }));
    const set = await call('/tenant/update_settings', { webhook: { url: `${receiver.url}/ours?token=abc123`, events: ['connection.connected'] } }, { apiKey });
    await receiver.close();
    expect(set.status, set.text).toBe(200);
    const rotated = await call('/tenant/update_settings', { rotateWebhookSecret: true }, { apiKey });
    const events = await eventsSince(apiKey, since);
    expect(events).toMatchObject([
      { action: 'webhook_secret.rotated', target: { type: 'webhook_secret', id: 'webhook' }, outcome: 'succeeded' },
      { action: 'settings.updated', target: { type: 'settings', id: 'tenant' }, changes: { webhook: { from: 'none', to: 'set' } }, outcome: 'succeeded' },
    ]);
    const text = JSON.stringify(events);
    for (const secret of [set.body.results.webhookSecret, rotated.body.results.webhookSecret, 'abc123', receiver.url]) expect(text).not.toContain(secret);
    await call('/tenant/update_settings', { webhook: null }, { apiKey });
  });

  it('a rotation with other changes leaves both events; a call that changes nothing leaves none', async () => {
    const receiver = await scriptedServer(() => ({ status: 200 }));
    await call('/tenant/update_settings', { webhook: { url: `${receiver.url}/first` } }, { apiKey });
    const since = await now();
    const both = await call('/tenant/update_settings', { webhook: { url: `${receiver.url}/second` }, rotateWebhookSecret: true }, { apiKey });
    await receiver.close();
    expect(both.status, both.text).toBe(200);
    const events = await eventsSince(apiKey, since);
    expect(events.map((event) => event.action).sort()).toEqual(['settings.updated', 'webhook_secret.rotated']);
    expect(events.find((event) => event.action === 'settings.updated')?.changes).toEqual({ 'webhook.url': {} });
    const quiet = await now();
    expect((await call('/tenant/update_settings', {}, { apiKey })).status).toBe(200);
    expect(await eventsSince(apiKey, quiet)).toEqual([]);
    await call('/tenant/update_settings', { webhook: null }, { apiKey });
  });

  it('create_upload, create_link and send_test_webhook each leave their event, with no URL or link id in it', async () => {
    const userId = await newUser(apiKey);
    const since = await now();
    const ticket = await call('/uploads/create_upload', { userId, fileName: 'list.csv', contentLength: 100 }, { apiKey });
    expect(ticket.status, ticket.text).toBe(200);
    await call('/tenant/update_settings', { redirectUris: [REDIRECT] }, { apiKey });
    const link = await call('/auth/create_link', { userId, platform: 'social', redirectUri: REDIRECT }, { apiKey });
    expect(link.status, link.text).toBe(200);
    const receiver = await scriptedServer(() => ({ status: 200 }));
    await call('/tenant/update_settings', { webhook: { url: `${receiver.url}/hooks` } }, { apiKey });
    const test = await call('/tenant/send_test_webhook', {}, { apiKey });
    await receiver.close();
    expect(test.status, test.text).toBe(200);
    const events = await eventsSince(apiKey, since);
    const byAction = (action: string) => events.find((event) => event.action === action);
    expect(byAction('upload.created')).toMatchObject({ userId, target: { type: 'upload', id: ticket.body.results.uploadId }, outcome: 'succeeded' });
    expect(byAction('connect_link.created')).toMatchObject({ userId, target: { type: 'connect_link', id: expect.stringMatching(/^lnk_[\w-]{16}$/) } });
    expect(byAction('webhook.test_sent')).toMatchObject({
      target: { type: 'settings', id: 'webhook' },
      changes: { event: { to: test.body.results.event.id } },
    });
    const text = JSON.stringify(events);
    const linkId = String(link.body.results.link).split('/').at(-1) as string;
    for (const secret of [linkId, ticket.body.results.url]) expect(text).not.toContain(secret);
    await call('/tenant/update_settings', { webhook: null }, { apiKey });
  });

  it('record_campaign_optimization: optimization.recorded', async () => {
    const userId = await newUser(apiKey);
    const since = await now();
    const recorded = await call(
      '/optimize_me/record_campaign_optimization',
      {
        userId,
        campaignId: 'cmp-audit-1',
        campaignName: 'Audit',
        platform: 'meta',
        optimizationStatus: 'active',
        startDate: Date.now(),
        entry: { adId: 'ad-1', adSetId: 'adset-1', timestamp: Date.now() },
      },
      { apiKey },
    );
    expect(recorded.status, recorded.text).toBe(200);
    expect(await eventsSince(apiKey, since)).toMatchObject([
      { action: 'optimization.recorded', userId, target: { type: 'optimization', id: 'cmp-audit-1' }, changes: { optimizationStatus: { to: 'active' } } },
    ]);
  });

  it('search campaign: created, refused by the platform (failed, with its code), and a dry run (none)', async () => {
    const userId = await newUser(apiKey, { searchads: { refreshToken: `1//audit-${randomBytes(6).toString('hex')}`, customerId: '4561237890' } });
    const since = await now();
    const created = await call('/searchads/create_search_campaign', winterCampaign(userId), { apiKey });
    expect(created.body.results.success, created.text).toBe(true);
    await call('/searchads/create_search_campaign', { ...winterCampaign(userId), validateOnly: true }, { apiKey });
    const refused = await call('/searchads/create_search_campaign', { ...winterCampaign(userId), dailyBudget: '50.001' }, { apiKey });
    expect(refused.body.results.code).toBe('PLATFORM_REJECTED');
    expect(await eventsSince(apiKey, since)).toMatchObject([
      { action: 'search_campaign.created', platform: 'searchads', outcome: 'failed', error: { code: 'PLATFORM_REJECTED' } },
      {
        action: 'search_campaign.created',
        platform: 'searchads',
        target: { type: 'search_campaign', id: created.body.results.campaignResourceName },
        changes: { name: { to: 'Winter Tune-Up 2026' }, dailyBudget: { to: '50' } },
        outcome: 'succeeded',
      },
    ]);
  });

  it('lead form: created, and refused', async () => {
    const { userId } = await newSocialUser(apiKey);
    const since = await now();
    const created = await call('/social/create_lead_form', validForm(userId), { apiKey });
    expect(created.body.results.success, created.text).toBe(true);
    const name = `Refused ${randomUUID()}`;
    await injectFault('social', { requestIncludes: name, status: 400, body: { error: { message: '(#100) Invalid parameter', code: 100 } } });
    await call('/social/create_lead_form', { ...validForm(userId), leadsFormName: name }, { apiKey });
    expect(await eventsSince(apiKey, since)).toMatchObject([
      { action: 'lead_form.created', outcome: 'failed', error: { code: 'PLATFORM_REJECTED' }, changes: { name: { to: name } } },
      { action: 'lead_form.created', outcome: 'succeeded', target: { type: 'lead_form', id: created.body.results.leadFormId } },
    ]);
  });

  it('social audience in the body: audience.created, then audience.updated for rows added; no contact value', async () => {
    const { userId } = await newSocialUser(apiKey);
    const since = await now();
    const created = await upload(
      '/social/create_social_csv_audience',
      { userId, audienceName: 'Audit list' },
      { field: 'csvFile', content: socialContacts },
      { apiKey },
    );
    expect(created.body.results.success, created.text).toBe(true);
    const audienceId = created.body.results.audienceId;
    await upload(
      '/social/create_social_csv_audience',
      { userId, audienceName: 'Audit list', mode: 'append', audienceId },
      { field: 'csvFile', content: socialContacts },
      { apiKey },
    );
    const events = await eventsSince(apiKey, since);
    expect(events).toMatchObject([
      { action: 'audience.updated', target: { type: 'audience', id: audienceId }, changes: { mode: { to: 'append' } }, outcome: 'succeeded' },
      { action: 'audience.created', target: { type: 'audience', id: audienceId }, changes: { mode: { to: 'create' } }, outcome: 'succeeded' },
    ]);
    expect(JSON.stringify(events)).not.toMatch(/@|\+1\d{6}/);
  });

  it('an audience from a direct upload: audience_job.started by the request, audience.created by the job in the same key’s name', async () => {
    const { userId } = await newSocialUser(apiKey);
    const uploadId = await uploaded(apiKey, userId, socialContacts);
    const since = await now();
    const started = await call('/social/create_social_csv_audience', { userId, uploadId, audienceName: 'Audit job' }, { apiKey });
    expect(started.body.results.success, started.text).toBe(true);
    const { jobId, audienceId } = started.body.results;
    await jobToEnd(apiKey, jobId);
    const events = await eventually(async () => {
      const found = await eventsSince(apiKey, since);
      return found.length >= 2 ? found : undefined;
    });
    expect(events).toMatchObject([
      { action: 'audience.created', actor: { type: 'api_key', id: keyId }, target: { type: 'audience', id: audienceId }, changes: { job: { to: jobId } } },
      {
        action: 'audience_job.started',
        actor: { type: 'api_key', id: keyId },
        target: { type: 'audience_job', id: jobId },
        changes: { audienceId: { to: audienceId } },
      },
    ]);
    expect(events[0]?.requestId).toBe(events[1]?.requestId);
  });

  it('professional audience in both forms: audience.created, and audience_job.started', async () => {
    const userId = await newUser(apiKey, { professional: { accessToken: `AQVaudit${randomBytes(8).toString('hex')}`, adAccountId: '500000001' } });
    const since = await now();
    const created = await upload(
      '/professional/create_csv_audience',
      { userId, type: 'USER_LIST_UPLOAD', audienceName: 'Audit pro' },
      { field: 'csv', content: professionalContacts },
      { apiKey },
    );
    expect(created.body.results.success, created.text).toBe(true);
    const uploadId = await uploaded(apiKey, userId, professionalContacts);
    const started = await call('/professional/create_csv_audience', { userId, uploadId, type: 'USER_LIST_UPLOAD' }, { apiKey });
    expect(started.body.results.success, started.text).toBe(true);
    await jobToEnd(apiKey, started.body.results.jobId);
    expect(await eventsSince(apiKey, since, { action: 'audience_job.started' })).toMatchObject([
      { target: { type: 'audience_job', id: started.body.results.jobId } },
    ]);
    expect(await eventsSince(apiKey, since, { action: 'audience.created' })).toContainEqual(
      expect.objectContaining({ target: { type: 'audience', id: created.body.results.audience.csvFileId }, platform: 'professional', outcome: 'succeeded' }),
    );
  });
});

describe('the service’s own writes', () => {
  it('a grant the platform refused: connection.reconnect_required, once, by the service', async () => {
    const { userId, token } = await newSocialUser(apiKey);
    const since = await now();
    const expired = { error: { message: 'Error validating access token: Session has expired', type: 'OAuthException', code: 190, error_subcode: 463 } };
    await injectFault('social', { requestIncludes: token, status: 400, body: expired, times: 2 });
    await call('/social/get_campaigns_list', { userId }, { apiKey });
    await call('/social/get_campaigns_list', { userId }, { apiKey });
    expect(await eventsSince(apiKey, since, { userId })).toMatchObject([
      {
        action: 'connection.reconnect_required',
        actor: { type: 'system' },
        userId,
        platform: 'social',
        target: { type: 'connection', id: 'social' },
        changes: { status: { to: 'reconnect_required' } },
      },
    ]);
  });

  it('a write and its event are one transaction: a write whose condition fails stores neither', async () => {
    const userId = `audit-atomic-${randomUUID()}`;
    const since = await now();
    const concurrent = await Promise.all(Array.from({ length: 5 }, () => call('/users/create_user', { userId }, { apiKey })));
    expect(concurrent.map((response) => response.status).sort()).toEqual([200, 409, 409, 409, 409]);
    expect(await eventsSince(apiKey, since, { action: 'user.created' })).toMatchObject([{ action: 'user.created', target: { id: userId } }]);
  });
});

describe('listing', () => {
  it('another tenant’s events are never listed, even asked for by its user id', async () => {
    const otherKey = await newTenant();
    const userId = await newUser(otherKey);
    expect(await auditEvents(apiKey, { userId })).toEqual([]);
    expect(await auditEvents(otherKey, { userId })).toHaveLength(1);
    const fresh = await newTenant();
    // its key's creation is its only event
    expect(await auditEvents(fresh)).toMatchObject([{ action: 'api_key.created', target: { type: 'api_key' }, outcome: 'succeeded' }]);
  });

  it('pages of at most 100, newest first, no event twice; filters by user, action and time; a forged cursor is 400', async () => {
    const tenant = await newTenant();
    const userId = await newUser(tenant);
    const before = await now();
    for (let index = 0; index < 104; index++) {
      const response = await call(
        '/optimize_me/record_campaign_optimization',
        {
          userId,
          campaignId: `cmp-${index}`,
          campaignName: 'Paging',
          platform: 'meta',
          optimizationStatus: 'active',
          startDate: 1,
          entry: { adId: 'ad-1', adSetId: 'adset-1', timestamp: 1 },
        },
        { apiKey: tenant },
      );
      expect(response.status).toBe(200);
    }
    const first = await call('/tenant/list_audit_events', {}, { apiKey: tenant });
    expect(first.body.results.events).toHaveLength(100);
    const second = await call('/tenant/list_audit_events', { pagination: first.body.results.paging.next }, { apiKey: tenant });
    const all = [...first.body.results.events, ...second.body.results.events] as AuditEvent[];
    expect(all).toHaveLength(106); // the user's creation and the key's too
    expect(new Set(all.map((event) => event.id)).size).toBe(106);
    const times = all.map((event) => event.occurredAt);
    expect(times).toEqual([...times].sort().reverse());
    expect(all.slice(-2).map((event) => event.action)).toEqual(['user.created', 'api_key.created']);
    expect(second.body.results.paging).toEqual({});

    expect(await auditEvents(tenant, { action: 'user.created' })).toHaveLength(1);
    expect(await auditEvents(tenant, { action: 'optimization.recorded', userId })).toHaveLength(100);
    expect(await auditEvents(tenant, { userId: 'someone-else' })).toEqual([]);
    const middle = all[50]?.occurredAt as string;
    // since (inclusive) and until (exclusive) at the same instant split the log in two, nothing lost or doubled
    const older = await everyEvent(tenant, { until: middle });
    const newer = await everyEvent(tenant, { since: middle });
    expect(older.every((event) => event.occurredAt < middle)).toBe(true);
    expect(newer.every((event) => event.occurredAt >= middle)).toBe(true);
    expect(new Set([...older, ...newer].map((event) => event.id)).size).toBe(106);
    expect(await auditEvents(tenant, { since: before, until: new Date(Date.parse(before) + 1).toISOString() })).toEqual([]);

    const forged = await call(
      '/tenant/list_audit_events',
      { pagination: Buffer.from(JSON.stringify({ before: 'TENANT#x' })).toString('base64url') },
      { apiKey: tenant },
    );
    expect(forged.status).toBe(400);
    const reversed = await call(
      '/tenant/list_audit_events',
      { since: new Date(clock.now() - 86_400_000).toISOString(), until: new Date(clock.now() - 31 * 86_400_000).toISOString() },
      { apiKey: tenant },
    );
    expect(reversed.status).toBe(400);
    expect(reversed.body.results.details).toEqual([{ path: 'until', message: 'must be later than since' }]);
    const unknownAction = await call('/tenant/list_audit_events', { action: 'user.deleted' }, { apiKey: tenant });
    expect(unknownAction.status).toBe(400);
  });
});

describe('what is never stored', () => {
  it('a scan of every stored event finds no token, secret, code or contact value', async () => {
    const found: string[] = [];
    for await (const item of scanItems({
      FilterExpression: 'begins_with(sk, :event) AND contains(pk, :audit)',
      ExpressionAttributeValues: { ':event': 'EVENT#', ':audit': '#AUDIT' },
    })) {
      found.push(JSON.stringify(item));
    }
    expect(found.length).toBeGreaterThan(20);
    for (const text of found) {
      // a token starts a value (after a quote, = or a space), never in the middle of a random id such as a media URN's
      expect(text).not.toMatch(
        /(?<=^|["=\s])(?:EAA[A-Za-z0-9]{6}|AQV[A-Za-z0-9]{6})|1\/\/[A-Za-z0-9-]{4}|whsec_|@example\.com|accessToken|refreshToken|"code":"[^A-Z]/,
      );
    }
  });
});
