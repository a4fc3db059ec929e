import { createHash, randomBytes, randomInt } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_CONNECTIONS } from '../../local/sandbox/demo-data.ts';
import { DEMO_DATASET_ID } from '../../local/sandbox/social-conversions.ts';
import type { NormalizedLead } from '../../shared/schemas/leads.ts';
import { findTenantIdByKeyHash, hashApiKey } from '../../shared/store/api-key-lookup.ts';
import { findConversionEvent } from '../../shared/store/conversions.ts';
import { eraseLead, storeLead } from '../../shared/store/lead-writes.ts';
import { call, newTenant, newUser, stack } from '../helpers/api.ts';
import { eventually } from '../helpers/eventually.ts';
import { injectFault, upstreamRequests, withdrawLeftoverFaults } from '../helpers/sandbox.ts';
import { scriptedServer, webhookEvents } from '../helpers/scripted-server.ts';

/**
 * A lead's outcome sent back to its platform, once (docs/conversions.md): report_outcome against the
 * local stack, the delivery worker, and what the platforms' sandboxes received: the lead's own
 * identifier and the right hashes, the social platform's earlier stages first, nothing twice.
 */
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
let receiver: Awaited<ReturnType<typeof scriptedServer>>;
let apiKey = '';
let tenantId = '';
beforeAll(async () => {
  receiver = await scriptedServer(() => ({ status: 200 }));
  apiKey = await newTenant();
  tenantId = (await findTenantIdByKeyHash(hashApiKey(apiKey))) as string;
  await call('/tenant/update_settings', { webhook: { url: `${receiver.url}/conversions` } }, { apiKey });
});
afterAll(() => receiver.close());
afterEach(withdrawLeftoverFaults);

const control = async (platform: 'social' | 'professional', path: string, body?: unknown) => {
  const response = await fetch(`${stack().sandboxes[platform]}/__sandbox/${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  expect(response.status).toBe(200);
  return response.json() as Promise<any>;
};

/** A user on the demo social account (its dataset) and a professional account of its own (two Conversions API rules), its funnel set. */
async function funnelUser() {
  const marker = randomBytes(6).toString('hex');
  const professionalAccount = String(randomInt(530_000_000, 539_999_999));
  const [mql, sql] = [randomInt(720_000_000, 729_999_999), randomInt(730_000_000, 739_999_999)];
  await control('professional', 'conversion-rules', {
    account: professionalAccount,
    rules: [
      { id: mql, name: 'MQL', conversionMethod: 'CONVERSIONS_API', enabled: true, type: 'MARKETING_QUALIFIED_LEAD' },
      { id: sql, name: 'SQL', conversionMethod: 'CONVERSIONS_API', enabled: true, type: 'SALES_QUALIFIED_LEAD' },
    ],
  });
  const tokens = { social: `EAAoutcome${marker}`, professional: `AQVoutcome${marker}` };
  const userId = await newUser(apiKey, {
    social: { accessToken: tokens.social, adAccountId: DEMO_CONNECTIONS.social.adAccountId },
    professional: { accessToken: tokens.professional, adAccountId: professionalAccount },
  });
  const set = await call(
    '/conversions/set_stages',
    {
      userId,
      crmName: 'HubSpot',
      stages: [
        { stage: 'Lead', social: { datasetId: DEMO_DATASET_ID, eventName: 'Lead' }, professional: { conversionRuleId: String(mql) } },
        { stage: 'Qualified', social: { datasetId: DEMO_DATASET_ID, eventName: 'QualifiedLead' }, professional: { conversionRuleId: String(sql) } },
        { stage: 'Won', social: { datasetId: DEMO_DATASET_ID, eventName: 'Converted' } },
      ],
    },
    { apiKey },
  );
  expect(set.status, set.text).toBe(200);
  return { userId, tokens, rules: { mql: String(mql), sql: String(sql) } };
}

/** A lead delivered to the user, as the leads pipeline stores it (its arrival is docs/leads.md's and leads.test.ts's). */
async function deliveredLead(userId: string, platform: 'social' | 'professional', fields: NormalizedLead['fields'], leadId?: string): Promise<NormalizedLead> {
  const lead: NormalizedLead = {
    // social lead ids run to 16 digits, past what a JavaScript number holds exactly
    leadId:
      leadId ??
      (platform === 'social' ? `9${randomInt(100_000_000, 999_999_999)}${randomInt(100_000, 999_999)}` : `5a1f0c2e-${randomBytes(8).toString('hex')}-3`),
    platform,
    formId: '998877665544332',
    createdAt: new Date().toISOString(),
    isTest: false,
    fields,
    answers: [],
    consents: [],
  };
  expect(await storeLead(tenantId, userId, lead, undefined)).toBe(true);
  return lead;
}

const report = (body: Record<string, unknown>, key = apiKey) => call('/leads/report_outcome', body, { apiKey: key });
const eventOf = async (userId: string, eventId: string) => (await call('/conversions/get_event', { userId, eventId }, { apiKey })).body.results;
const ended = (userId: string, eventId: string) =>
  eventually(
    async () => {
      const event = await eventOf(userId, eventId);
      return event.platforms.every((platform: { status: string }) => platform.status !== 'queued') ? event : undefined;
    },
    20_000,
    `event ${eventId} to end`,
  );
const socialReceived = async (eventIds: string[]) =>
  ((await control('social', 'conversions')) as Array<{ datasetId: string; event: Record<string, any>; leadIdDigits?: string }>).filter((entry) =>
    eventIds.includes(entry.event.event_id),
  );
const professionalReceived = async (eventIds: string[]) =>
  ((await control('professional', 'conversions')) as Array<{ element: Record<string, any> }>).filter((entry) => eventIds.includes(entry.element.eventId));
const webhooksFor = (eventIds: string[]) => webhookEvents(receiver.received).filter((event) => eventIds.includes(event.data?.eventId));

describe('report_outcome on the social platform', () => {
  it('sends the stages before it first, in order, each once, matched by the lead id and the hashed e-mail and phone', async () => {
    const user = await funnelUser();
    const lead = await deliveredLead(user.userId, 'social', { email: ' Jordan.Example@Example.com ', phone: '+1 (555) 555-0123', fullName: 'Jordan Example' });
    const reported = await report({ userId: user.userId, leadId: lead.leadId, stage: 'qualified', value: { amount: '1250.00', currency: 'USD' } });
    expect(reported.status, reported.text).toBe(202);
    const { outcomeId, eventIds } = reported.body.results;
    expect(reported.body.results).toEqual({
      success: true,
      outcomeId: expect.stringMatching(/^out_[0-9a-f]{24}$/),
      eventIds: [expect.any(String), expect.any(String)],
      status: 'queued',
    });
    for (const eventId of eventIds) expect(eventId).toMatch(/^[A-Za-z0-9_.:-]{1,64}$/);
    for (const eventId of eventIds)
      expect((await ended(user.userId, eventId)).platforms).toEqual([{ platform: 'social', destinationId: DEMO_DATASET_ID, status: 'delivered' }]);

    const received = await socialReceived(eventIds);
    expect(received.map((entry) => entry.event.event_name)).toEqual(['Lead', 'QualifiedLead']);
    for (const entry of received) {
      expect(entry.datasetId).toBe(DEMO_DATASET_ID);
      expect(entry.leadIdDigits).toBe(lead.leadId);
      expect(entry.event).toMatchObject({
        action_source: 'system_generated',
        user_data: { em: [sha256('jordan.example@example.com')], ph: [sha256('15555550123')] },
        custom_data: { event_source: 'crm', lead_event_source: 'HubSpot' },
      });
      // nothing of the person in clear
      expect(JSON.stringify(entry.event)).not.toMatch(/jordan|555-0123|Example/i);
    }
    expect(received[1]?.event.custom_data).toMatchObject({ value: 1250, currency: 'usd' });
    expect(received[0]?.event.custom_data.value).toBeUndefined();

    // the same outcome again: the same answer, nothing sent, nothing more audited
    const again = await report({ userId: user.userId, leadId: lead.leadId, stage: 'Qualified' });
    expect(again.status).toBe(202);
    expect(again.body.results).toMatchObject({ outcomeId, eventIds });
    const { events: reports } = (await call('/tenant/list_audit_events', { userId: user.userId, action: 'lead.outcome_reported' }, { apiKey })).body.results;
    expect(reports).toEqual([
      expect.objectContaining({ target: { type: 'lead', id: lead.leadId }, changes: { stage: { to: 'qualified' }, events: { to: 2 } }, outcome: 'succeeded' }),
    ]);
    // the next stage: only its own event is new
    const won = await report({ userId: user.userId, leadId: lead.leadId, stage: 'Won' });
    expect(won.body.results.eventIds.slice(0, 2)).toEqual(eventIds);
    await ended(user.userId, won.body.results.eventIds[2]);
    expect((await socialReceived(won.body.results.eventIds)).map((entry) => entry.event.event_name)).toEqual(['Lead', 'QualifiedLead', 'Converted']);

    // one conversion.delivered a platform and event, with no person's data
    const delivered = await eventually(async () => {
      const found = webhooksFor(won.body.results.eventIds);
      return found.length === 3 ? found : undefined;
    });
    for (const event of delivered) {
      expect(event).toMatchObject({
        type: 'conversion.delivered',
        data: { userId: user.userId, platform: 'social', destinationId: DEMO_DATASET_ID, status: 'delivered' },
      });
      expect(JSON.stringify(event)).not.toMatch(/jordan|example\.com/i);
    }
  });

  it('a send the platform answers 5xx is sent again with the same event id, and counted once', async () => {
    const user = await funnelUser();
    const lead = await deliveredLead(user.userId, 'social', { email: 'retry@example.com' });
    await injectFault('social', {
      requestIncludes: user.tokens.social,
      pathIncludes: '/events',
      status: 500,
      body: { error: { message: 'An unknown error occurred', code: 1, is_transient: true } },
    });
    const { eventIds } = (await report({ userId: user.userId, leadId: lead.leadId, stage: 'Lead' })).body.results;
    expect((await ended(user.userId, eventIds[0])).platforms[0].status).toBe('delivered');
    const posts = (await upstreamRequests('social')).filter((request) => request.path.endsWith('/events') && request.body.includes(eventIds[0]));
    expect(posts).toHaveLength(2);
    expect(await socialReceived(eventIds)).toHaveLength(1);
  });

  it('an event older than the platform’s 7 days is never sent: skipped_expired', async () => {
    const user = await funnelUser();
    const lead = await deliveredLead(user.userId, 'social', { email: 'late@example.com' });
    const occurredAt = new Date(Date.now() - 8 * 86_400_000).toISOString();
    const { eventIds } = (await report({ userId: user.userId, leadId: lead.leadId, stage: 'Lead', occurredAt })).body.results;
    expect((await eventOf(user.userId, eventIds[0])).platforms).toEqual([{ platform: 'social', destinationId: DEMO_DATASET_ID, status: 'skipped_expired' }]);
    expect(await socialReceived(eventIds)).toEqual([]);
  });
});

describe('report_outcome on the professional platform', () => {
  it('sends the stage alone, matched by the lead-form response and the hashed e-mail, in one BATCH_CREATE', async () => {
    const user = await funnelUser();
    const lead = await deliveredLead(user.userId, 'professional', { email: 'Alex.Beispiel@Example.com', firstName: 'Alex', lastName: 'Beispiel' });
    const reported = await report({ userId: user.userId, leadId: lead.leadId, stage: 'Qualified', value: { amount: '120.0', currency: 'eur' } });
    expect(reported.status, reported.text).toBe(202);
    const { eventIds } = reported.body.results;
    expect(eventIds).toHaveLength(1);
    expect((await ended(user.userId, eventIds[0])).platforms).toEqual([{ platform: 'professional', destinationId: user.rules.sql, status: 'delivered' }]);
    const [received, ...more] = await professionalReceived(eventIds);
    expect(more).toEqual([]);
    expect(received?.element).toEqual({
      conversion: `urn:lla:llaPartnerConversion:${user.rules.sql}`,
      conversionHappenedAt: expect.any(Number),
      conversionValue: { currencyCode: 'EUR', amount: '120.0' },
      eventId: eventIds[0],
      user: { userIds: [{ idType: 'SHA256_EMAIL', idValue: sha256('alex.beispiel@example.com') }], lead: `urn:li:leadGenFormResponse:${lead.leadId}` },
    });
    const [request] = (await upstreamRequests('professional')).filter((entry) => entry.path === '/rest/conversionEvents' && entry.body.includes(eventIds[0]));
    // the request audited with counts only
    const { events: audited } = (await call('/tenant/list_audit_events', { userId: user.userId, action: 'conversion.sent' }, { apiKey })).body.results;
    expect(audited).toEqual([
      expect.objectContaining({
        action: 'conversion.sent',
        actor: { type: 'system', id: 'deliver_conversions' },
        platform: 'professional',
        target: { type: 'conversion', id: eventIds[0] },
        changes: { events: { to: 1 }, status: { to: 'delivered' } },
        outcome: 'succeeded',
      }),
    ]);
    expect(JSON.stringify(audited)).not.toMatch(/beispiel|example\.com|[0-9a-f]{64}/i);
    expect(request?.headers).toMatchObject({ 'x-restli-method': 'BATCH_CREATE', 'linkedin-version': expect.stringMatching(/^\d{6}$/) });
  });

  it('a lost answer (the platform answers 5xx after the request) is never sent again: the event ends unknown', async () => {
    const user = await funnelUser();
    const lead = await deliveredLead(user.userId, 'professional', { email: 'lost@example.com' });
    await injectFault('professional', {
      requestIncludes: user.tokens.professional,
      pathIncludes: '/rest/conversionEvents',
      status: 504,
      body: { message: 'Gateway timeout', status: 504 },
    });
    const { eventIds } = (await report({ userId: user.userId, leadId: lead.leadId, stage: 'Lead' })).body.results;
    const event = await ended(user.userId, eventIds[0]);
    expect(event.platforms).toEqual([
      { platform: 'professional', destinationId: user.rules.mql, status: 'unknown', error: { code: 'UNKNOWN_OUTCOME', message: expect.any(String) } },
    ]);
    const posts = (await upstreamRequests('professional')).filter((request) => request.path === '/rest/conversionEvents' && request.body.includes(eventIds[0]));
    expect(posts).toHaveLength(1);
    const [webhook] = await eventually(async () => {
      const found = webhooksFor(eventIds);
      return found.length > 0 ? found : undefined;
    });
    expect(webhook).toMatchObject({ type: 'conversion.unknown', data: { status: 'unknown', platform: 'professional' } });
  });
});

describe('list_events', () => {
  it('lists the user’s events newest first with where each stands, filtered by stage and by status on any platform, in pages', async () => {
    const user = await funnelUser();
    const social = await deliveredLead(user.userId, 'social', { email: 'listed@example.com' });
    const professional = await deliveredLead(user.userId, 'professional', { email: 'listed@example.com' });
    const late = await deliveredLead(user.userId, 'social', { email: 'late.listed@example.com' });
    const first = (await report({ userId: user.userId, leadId: social.leadId, stage: 'Qualified' })).body.results.eventIds as string[];
    const second = (await report({ userId: user.userId, leadId: professional.leadId, stage: 'Lead' })).body.results.eventIds as string[];
    const skipped = (await report({ userId: user.userId, leadId: late.leadId, stage: 'Lead', occurredAt: new Date(Date.now() - 9 * 86_400_000).toISOString() }))
      .body.results.eventIds as string[];
    for (const eventId of [...first, ...second]) await ended(user.userId, eventId);
    const list = async (filters: Record<string, unknown> = {}) =>
      (await call('/conversions/list_events', { userId: user.userId, ...filters }, { apiKey })).body.results;

    const all = await list();
    expect(all.events.map((event: { eventId: string }) => event.eventId).sort()).toEqual([...first, ...second, ...skipped].sort());
    for (const event of all.events) expect(event).toEqual(await eventOf(user.userId, event.eventId).then(({ success: _, ...rest }) => rest));
    expect((await list({ status: 'skipped_expired' })).events.map((event: { eventId: string }) => event.eventId)).toEqual(skipped);
    expect((await list({ status: 'delivered', stage: 'Lead' })).events.map((event: { eventId: string }) => event.eventId).sort()).toEqual(
      [first[0], second[0]].sort(),
    );
    const page = await list({ limit: 2 });
    expect(page.events).toHaveLength(2);
    const rest = await list({ limit: 2, pagination: page.paging.next });
    expect([...page.events, ...rest.events].map((event: { eventId: string }) => event.eventId)).toEqual(
      all.events.map((event: { eventId: string }) => event.eventId),
    );
    expect(rest.paging).toEqual({});
    // another user's list holds none of them
    const other = await funnelUser();
    expect((await call('/conversions/list_events', { userId: other.userId }, { apiKey })).body.results.events).toEqual([]);
    const bad = await call('/conversions/list_events', { userId: user.userId, status: 'lost' }, { apiKey });
    expect(bad.status).toBe(400);
  });
});

describe('erasing a lead', () => {
  it('ends its conversions still queued (LEAD_ERASED, never sent) and removes the hashes of every delivery of it', async () => {
    const user = await funnelUser();
    const lead = await deliveredLead(user.userId, 'social', { email: 'erase.me@example.com' });
    const delivered = (await report({ userId: user.userId, leadId: lead.leadId, stage: 'Lead' })).body.results.eventIds as string[];
    await ended(user.userId, delivered[0] as string);
    // the next stage meets a throttled platform and parks
    await injectFault('social', {
      requestIncludes: user.tokens.social,
      pathIncludes: '/events',
      status: 400,
      body: { error: { message: '(#4) Application request limit reached', code: 4, is_transient: true } },
      times: 20,
    });
    const { eventIds } = (await report({ userId: user.userId, leadId: lead.leadId, stage: 'Qualified' })).body.results;
    await eventually(async () =>
      (await upstreamRequests('social')).some((request) => request.path.endsWith('/events') && request.body.includes(eventIds[1])) ? true : undefined,
    );
    const erased = await call('/leads/erase_lead', { userId: user.userId, leadId: lead.leadId }, { apiKey });
    expect(erased.status, erased.text).toBe(200);
    expect((await eventOf(user.userId, eventIds[1])).platforms).toEqual([
      { platform: 'social', destinationId: DEMO_DATASET_ID, status: 'rejected', error: { code: 'LEAD_ERASED', message: expect.any(String) } },
    ]);
    const stored = await findConversionEvent(tenantId, eventIds[1]);
    expect(stored?.deliveries.map((delivery) => delivery.payload)).toEqual([undefined]);
    expect((await findConversionEvent(tenantId, delivered[0] as string))?.deliveries.map((delivery) => delivery.payload)).toEqual([undefined]);
    expect(await socialReceived([eventIds[1]])).toEqual([]);
  });
});

describe('report_outcome refuses', () => {
  it('an unknown, erased, another user’s or another tenant’s lead (404 LEAD_NOT_FOUND), an unmapped stage (400 STAGE_NOT_MAPPED), a time ahead: nothing sent', async () => {
    const user = await funnelUser();
    const other = await funnelUser();
    const lead = await deliveredLead(user.userId, 'professional', { email: 'refused@example.com' });
    const before = (await upstreamRequests('professional')).length;

    const unknown = await report({ userId: user.userId, leadId: '1234567890123456', stage: 'Lead' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.results.code).toBe('LEAD_NOT_FOUND');
    expect((await report({ userId: other.userId, leadId: lead.leadId, stage: 'Lead' })).body.results.code).toBe('LEAD_NOT_FOUND');
    const stranger = await newTenant();
    const strangerUser = await newUser(stranger, {});
    expect((await report({ userId: strangerUser, leadId: lead.leadId, stage: 'Lead' }, stranger)).body.results.code).toBe('LEAD_NOT_FOUND');

    const unmapped = await report({ userId: user.userId, leadId: lead.leadId, stage: 'Won' });
    expect(unmapped.status).toBe(400);
    expect(unmapped.body.results).toMatchObject({ code: 'STAGE_NOT_MAPPED', platform: 'professional' });
    expect((await report({ userId: user.userId, leadId: lead.leadId, stage: 'Churned' })).body.results.code).toBe('STAGE_NOT_MAPPED');
    const ahead = await report({ userId: user.userId, leadId: lead.leadId, stage: 'Lead', occurredAt: new Date(Date.now() + 10 * 60_000).toISOString() });
    expect(ahead.status).toBe(400);
    expect(ahead.body.results.details).toEqual([expect.objectContaining({ path: 'occurredAt' })]);
    for (const bad of [
      { stage: 'not a stage' },
      { value: { amount: '-1', currency: 'USD' } },
      { value: { amount: '10', currency: 'dollars' } },
      { extra: true },
    ]) {
      const refused = await report({ userId: user.userId, leadId: lead.leadId, stage: 'Lead', ...bad });
      expect(refused.status, JSON.stringify(bad)).toBe(400);
      expect(refused.body.results.code).toBe('INVALID_REQUEST');
    }

    expect(await eraseLead(tenantId, user.userId, 'professional', lead.leadId)).toBe(true);
    const erased = await report({ userId: user.userId, leadId: lead.leadId, stage: 'Lead' });
    expect(erased.status).toBe(404);
    expect(erased.body.results.code).toBe('LEAD_NOT_FOUND');
    expect((await upstreamRequests('professional')).slice(before).filter((request) => request.path === '/rest/conversionEvents')).toEqual([]);
  });

  it('another user’s or tenant’s event is 404 on get_event', async () => {
    const user = await funnelUser();
    const lead = await deliveredLead(user.userId, 'social', { email: 'mine@example.com' });
    const { eventIds } = (await report({ userId: user.userId, leadId: lead.leadId, stage: 'Lead' })).body.results;
    const other = await funnelUser();
    const foreign = await call('/conversions/get_event', { userId: other.userId, eventId: eventIds[0] }, { apiKey });
    expect(foreign.status).toBe(404);
    expect(foreign.body.results.code).toBe('NOT_FOUND');
  });
});
