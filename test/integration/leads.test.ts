import { createHash, createHmac } from 'node:crypto';
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handler as sweepLeads } from '../../functions/workers/sweep-leads/handler.ts';
import { sweepSubscription } from '../../functions/use-cases/leads/sweep-leads.ts';
import { lambdaContext } from '../helpers/events.ts';
import { handler as sweepFlows } from '../../functions/workers/sweep-flows/handler.ts';
import { attemptDelivery } from '../../shared/webhooks/deliver.ts';
import { DEMO_CONNECTIONS, SANDBOX_APP_CREDENTIALS } from '../../local/sandbox/demo-data.ts';
import { SECOND_PAGE_ID, THIRD_PAGE_ID } from '../../local/sandbox/social-data.ts';
import { professionalSignatureOf } from '../../shared/platforms/professional/lead-webhooks.ts';
import { socialSignatureOf } from '../../shared/platforms/social/lead-webhooks.ts';
import { documentStore, mainTableName } from '../../shared/store/client.ts';
import { keys } from '../../shared/store/keys.ts';
import { findInbound, inboundAttributes, inboundKey } from '../../shared/store/platform-webhooks.ts';
import { tableFlowStore } from '../../shared/store/flow-items.ts';
import { inboundBodies } from '../../shared/flows/flows.ts';
import { EventFlow } from '../../shared/flows/event-flow.ts';
import { saveLinkedConnection } from '../../shared/store/user-writes.ts';
import { findUser } from '../../shared/store/users.ts';
import { findTenantIdByKeyHash, hashApiKey } from '../../shared/store/api-key-lookup.ts';
import { call, newTenant, newUser, stack } from '../helpers/api.ts';
import { injectFault, upstreamRequests } from '../helpers/sandbox.ts';
import { subscriptionsOf } from '../../shared/store/lead-subscriptions.ts';
import { scriptedServer } from '../helpers/scripted-server.ts';
import { newSocialUser } from '../helpers/social.ts';

/**
 * Leads end to end against the local stack (docs/leads.md): the platforms' signed webhooks at our
 * public routes, each lead read once per tenant and delivered once as a signed `lead.received`, the
 * sweep finding what a webhook did not bring, and every bad input refused with nothing stored.
 */
let receiver: Awaited<ReturnType<typeof scriptedServer>>;
beforeAll(async () => {
  receiver = await scriptedServer(() => ({ status: 200 }));
});
afterAll(() => receiver.close());

/** the leads tests' own Page: no other test's subscriptions or forms for the sweeps here to read */
const PAGE = SECOND_PAGE_ID;

/** The sweep as its fan-out's worker runs it, for every subscription to a Page or account, here and awaited. */
async function sweepPage(platform: 'social' | 'professional' = 'social', target: string = PAGE) {
  for (const subscription of await subscriptionsOf(platform, target)) await sweepSubscription(subscription, lambdaContext());
}
const sandbox = (platform: 'social' | 'professional') => stack().sandboxes[platform] as string;

/** A tenant whose webhook is our receiver (at its own path), with a social user subscribed to the leads tests' Page (or `pageId`). */
async function socialTenant(pageId = PAGE) {
  const apiKey = await newTenant();
  const path = `/leads-${Math.random().toString(16).slice(2)}`;
  const settings = await call('/tenant/update_settings', { webhook: { url: `${receiver.url}${path}` } }, { apiKey });
  const user = await newSocialUser(apiKey, { pageId });
  const subscribed = await call('/leads/subscribe', { userId: user.userId, platform: 'social' }, { apiKey });
  expect(subscribed.body.results, subscribed.text).toEqual({ success: true, subscriptions: [{ target: pageId, status: 'subscribed' }] });
  const tenantId = (await findTenantIdByKeyHash(hashApiKey(apiKey))) as string;
  return { apiKey, tenantId, user, path, secret: settings.body.results.webhookSecret as string };
}

/** The lead.received webhooks this tenant's path got, each checked with its secret. */
const leadsReceived = (tenant: { path: string; secret: string }) =>
  receiver.received
    .filter((request) => request.url === tenant.path)
    .map((request) => {
      const verified = new Webhook(tenant.secret.slice('whsec_'.length)).verify(request.body, request.headers as Record<string, string>) as {
        type: string;
        data: { lead: { leadId: string } };
      };
      return verified;
    })
    .filter((event) => event.type === 'lead.received');

/** How often each of these leads reached the tenant (a sweep may also bring another test's lead of the same second). */
const timesReceived = (tenant: { path: string; secret: string }, leadIds: string[]) =>
  leadIds.map((leadId) => leadsReceived(tenant).filter((event) => event.data.lead.leadId === leadId).length);

/** A lead form of the demo Page, made through the sandbox's Graph (its questions: full name, e-mail, a custom choice). */
async function leadForm(apiKey: string, userId: string): Promise<string> {
  const made = await call(
    '/social/create_lead_form',
    {
      userId,
      leadsFormName: `Form ${Math.random()}`,
      language: 'EN_US',
      form_type: 'HIGHER_INTENT',
      privacyPolicyUrl: 'https://www.example.com/privacy',
      privacyPolicyName: 'Privacy policy',
      leadFormQuestions: [{ type: 'FULL_NAME' }, { type: 'EMAIL' }],
      thankYouPage: { title: 'Thanks!', body: 'We will call you.', button_text: 'Visit', button_type: 'VIEW_WEBSITE', website_url: 'https://www.example.com' },
    },
    { apiKey },
  );
  return made.body.results.leadFormId as string;
}

async function makeLeads(platform: 'social' | 'professional', body: Record<string, unknown>) {
  const response = await fetch(`${sandbox(platform)}/__sandbox/leads`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return (await response.json()) as { leadIds: string[]; webhook: unknown };
}

const postWebhook = (platform: 'social' | 'professional', body: string, signature: string) =>
  fetch(`${stack().url}/platform-webhooks/${platform}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [platform === 'social' ? 'x-hub-signature-256' : 'x-li-signature']: signature },
    body,
  });

const socialBody = (leadIds: string[], formId: string, pageId: string = PAGE) =>
  JSON.stringify({
    object: 'page',
    entry: [
      {
        id: pageId,
        time: 1,
        changes: leadIds.map((id) => ({ field: 'leadgen', value: { leadgen_id: id, page_id: pageId, form_id: formId, created_time: 1 } })),
      },
    ],
  });

const leadReadsOf = async (leadId: string, from = 0) => (await upstreamRequests('social', from)).filter((request) => request.path.endsWith(`/${leadId}`));

describe('leads from the social platform', () => {
  // one tenant and one form for most cases: fewer subscriptions and forms for every sweep to read
  let shared: Awaited<ReturnType<typeof socialTenant>>;
  let sharedForm: string;
  beforeAll(async () => {
    shared = await socialTenant();
    sharedForm = await leadForm(shared.apiKey, shared.user.userId);
  });

  it('a submitted form reaches the tenant as one signed lead.received, read once, listed, sealed at rest', async () => {
    const tenant = shared;
    const formId = sharedForm;
    const made = await makeLeads('social', { formId });
    expect(made.webhook).toEqual({ status: 200 });
    const [leadId] = made.leadIds as [string];
    await expect.poll(() => leadsReceived(tenant).map((event) => event.data.lead.leadId)).toEqual([leadId]);
    expect(leadsReceived(tenant)[0]?.data).toMatchObject({
      userId: tenant.user.userId,
      platform: 'social',
      lead: {
        leadId,
        platform: 'social',
        formId,
        isTest: false,
        fields: { fullName: expect.stringMatching(/^Sandbox Person/), email: expect.stringContaining('@') },
      },
    });
    // one read of the lead per tenant subscribed to the Page (each with its own user's Page token)
    const reads = await leadReadsOf(leadId);
    expect(reads.length).toBe(new Set(reads.map((request) => request.query.access_token)).size);
    const listed = await call('/leads/list_leads', { userId: tenant.user.userId }, { apiKey: tenant.apiKey });
    expect(listed.body.results.leads.map((entry: { lead: { leadId: string } }) => entry.lead.leadId)).toEqual([leadId]);
  });

  it('the same body again (a platform retry or a replay) stores and sends nothing new; two tenants on one Page each get it once, each read once', async () => {
    const first = await socialTenant();
    const second = await socialTenant();
    const formId = sharedForm;
    const before = (await upstreamRequests('social')).length;
    const [leadId] = (await makeLeads('social', { formId, webhook: false })).leadIds as [string];
    const body = socialBody([leadId], formId);
    const signature = socialSignatureOf(body, SANDBOX_APP_CREDENTIALS.SOCIAL_APP_SECRET);
    for (let attempt = 0; attempt < 3; attempt++) expect((await postWebhook('social', body, signature)).status).toBe(200);
    for (const tenant of [first, second]) await expect.poll(() => leadsReceived(tenant).length).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 500)); // a second delivery, were there one, would be queued by now
    for (const tenant of [first, second]) expect(leadsReceived(tenant)).toHaveLength(1);
    // one read per tenant subscribed to the Page (this test's two, and any other test's on the same Page)
    const reads = await leadReadsOf(leadId, before);
    const tenantsOnPage = new Set(reads.map((request) => request.query.access_token)).size;
    expect(reads.length).toBe(tenantsOnPage);
  });

  it('a forged, missing or truncated signature is 401 and stores nothing; a body over 1 MB is 413', async () => {
    const body = socialBody(['1357924680999001'], '1');
    const hash = createHash('sha256').update(body).digest('hex');
    expect((await postWebhook('social', body, socialSignatureOf(body, 'not-the-app-secret'))).status).toBe(401);
    expect((await postWebhook('social', body, 'sha256=abc')).status).toBe(401);
    expect((await fetch(`${stack().url}/platform-webhooks/social`, { method: 'POST', body })).status).toBe(401);
    expect(await findInbound('social', hash)).toBeUndefined();
    const huge = 'x'.repeat(1_100_000);
    expect((await postWebhook('social', huge, socialSignatureOf(huge, SANDBOX_APP_CREDENTIALS.SOCIAL_APP_SECRET))).status).toBe(413);
    // a professional body signed the social way, or over the bare body, is refused too
    const notice = '{"type":"LEAD_ACTION"}';
    expect((await postWebhook('professional', notice, socialSignatureOf(notice, SANDBOX_APP_CREDENTIALS.PROFESSIONAL_CLIENT_SECRET))).status).toBe(401);
  });

  it('a Page no tenant subscribed: 200 to the platform, nothing read, nothing delivered', async () => {
    const before = (await upstreamRequests('social')).length;
    const body = socialBody(['1357924680999002'], '1', '999999999999999');
    expect((await postWebhook('social', body, socialSignatureOf(body, SANDBOX_APP_CREDENTIALS.SOCIAL_APP_SECRET))).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await leadReadsOf('1357924680999002', before)).toEqual([]);
  });

  it('a lead that can no longer be read (deleted, past 90 days) is dropped: nothing delivered, the body processed', async () => {
    const tenant = shared;
    const body = socialBody(['1357924680999003'], '1');
    expect((await postWebhook('social', body, socialSignatureOf(body, SANDBOX_APP_CREDENTIALS.SOCIAL_APP_SECRET))).status).toBe(200);
    await expect.poll(async () => (await leadReadsOf('1357924680999003')).length).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(timesReceived(tenant, ['1357924680999003'])).toEqual([0]);
  });

  it('a dropped webhook is found by the sweep, once; the sweep and a webhook of the same lead at once deliver it once', async () => {
    const tenant = shared;
    const formId = sharedForm;
    const [missed] = (await makeLeads('social', { formId, webhook: false })).leadIds as [string];
    // the scheduled pass only queues: one message per subscription, each swept by the worker of platform events
    const pass = await sweepLeads();
    expect(pass.subscriptions).toBeGreaterThanOrEqual((await subscriptionsOf('social', PAGE)).length);
    await expect.poll(() => timesReceived(tenant, [missed])).toEqual([1]);
    await sweepPage();
    const [raced] = (await makeLeads('social', { formId, webhook: false })).leadIds as [string];
    const body = socialBody([raced], formId);
    await Promise.all([sweepPage(), postWebhook('social', body, socialSignatureOf(body, SANDBOX_APP_CREDENTIALS.SOCIAL_APP_SECRET))]);
    await expect.poll(() => timesReceived(tenant, [missed, raced])).toEqual([1, 1]);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(timesReceived(tenant, [missed, raced])).toEqual([1, 1]);
  });

  it('a body stored whose message was lost (a crash before it was queued) is processed by the sweep', async () => {
    const tenant = shared;
    const formId = sharedForm;
    const [leadId] = (await makeLeads('social', { formId, webhook: false })).leadIds as [string];
    const body = socialBody([leadId], formId);
    const bodyHash = createHash('sha256').update(body).digest('hex');
    // stored as the route stores it, due long ago, and never queued (the process died before it sent the message)
    const stored = new EventFlow(inboundBodies, { store: tableFlowStore, queue: { send: async () => undefined }, now: () => 0 });
    expect(await stored.admit(inboundKey('social', bodyHash), await inboundAttributes('social', bodyHash, body))).toBe(true);
    expect((await sweepFlows()).requeued).toBeGreaterThanOrEqual(1);
    await expect.poll(() => timesReceived(tenant, [leadId])).toEqual([1]);
  });

  it('a connection whose grant expired: reconnect_required, and once connected again the sweep delivers the lead', async () => {
    const tenant = await socialTenant();
    const formId = sharedForm;
    const user = (await findUser(tenant.tenantId, tenant.user.userId)) as NonNullable<Awaited<ReturnType<typeof findUser>>>;
    const audit = { tenantId: tenant.tenantId, action: 'connection.connected' as const, target: { type: 'connection' as const, id: 'social' } };
    await saveLinkedConnection(
      user,
      'social',
      { adAccountId: DEMO_CONNECTIONS.social.adAccountId, pageId: PAGE },
      { accessToken: `EAAEXPIRED${Date.now()}aa` },
      audit,
    );
    const [leadId] = (await makeLeads('social', { formId })).leadIds as [string];
    await expect
      .poll(
        async () => (await call('/users/get_profile', { userId: tenant.user.userId }, { apiKey: tenant.apiKey })).body.results.user.connections.social.status,
      )
      .toBe('reconnect_required');
    expect(timesReceived(tenant, [leadId])).toEqual([0]);
    const again = (await findUser(tenant.tenantId, tenant.user.userId)) as NonNullable<Awaited<ReturnType<typeof findUser>>>;
    await saveLinkedConnection(
      again,
      'social',
      { adAccountId: DEMO_CONNECTIONS.social.adAccountId, pageId: PAGE },
      { accessToken: `EAAfresh${Date.now()}bb` },
      audit,
    );
    await sweepPage();
    await expect.poll(() => timesReceived(tenant, [leadId])).toEqual([1]);
  });

  it('erase_lead removes it for good: not listed, not stored again when the platform retries', async () => {
    const tenant = shared;
    const formId = sharedForm;
    const [leadId] = (await makeLeads('social', { formId })).leadIds as [string];
    await expect.poll(() => timesReceived(tenant, [leadId])).toEqual([1]);
    const erased = await call('/leads/erase_lead', { userId: tenant.user.userId, leadId }, { apiKey: tenant.apiKey });
    expect(erased.body.results).toEqual({ success: true, leadId, erased: true });
    // the platform's retry of the lead (another body naming it) and the sweep find the tombstone
    const retry = socialBody([leadId], formId).replace('"time":1', '"time":2');
    expect((await postWebhook('social', retry, socialSignatureOf(retry, SANDBOX_APP_CREDENTIALS.SOCIAL_APP_SECRET))).status).toBe(200);
    await sweepPage();
    await new Promise((resolve) => setTimeout(resolve, 500));
    const listed = (await call('/leads/list_leads', { userId: tenant.user.userId }, { apiKey: tenant.apiKey })).body.results.leads as Array<{
      lead: { leadId: string };
    }>;
    expect(listed.map((entry) => entry.lead.leadId)).not.toContain(leadId);
    expect(timesReceived(tenant, [leadId])).toEqual([1]);
    expect((await call('/leads/erase_lead', { userId: tenant.user.userId, leadId }, { apiKey: tenant.apiKey })).status).toBe(404);
  });

  it('the business keeps our app from a Page’s leads: leads.access_missing once; once access is given the sweep delivers the lead', async () => {
    const tenant = shared;
    const formId = sharedForm;
    const access = (allowed: boolean) =>
      fetch(`${sandbox('social')}/__sandbox/leads-access`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ pageId: PAGE, allowed }),
      });
    await access(false);
    let leadId = '';
    try {
      [leadId] = (await makeLeads('social', { formId })).leadIds as [string];
      const noticesOf = () =>
        receiver.received
          .filter((request) => request.url === tenant.path)
          .map((request) => JSON.parse(request.body) as { type: string; data: Record<string, unknown> })
          .filter((event) => event.type === 'leads.access_missing');
      await expect.poll(() => noticesOf().map((event) => event.data)).toEqual([{ userId: tenant.user.userId, platform: 'social', target: PAGE }]);
      expect(timesReceived(tenant, [leadId])).toEqual([0]);
      // the subscription says so too
      const again = await call('/leads/subscribe', { userId: tenant.user.userId, platform: 'social' }, { apiKey: tenant.apiKey });
      expect(again.body.results.subscriptions).toEqual([
        { target: PAGE, status: 'subscribed', error: { code: 'LEADS_ACCESS_MISSING', message: expect.any(String) } },
      ]);
    } finally {
      await access(true);
    }
    await sweepPage();
    await expect.poll(() => timesReceived(tenant, [leadId])).toEqual([1]);
    const cleared = await call('/leads/subscribe', { userId: tenant.user.userId, platform: 'social' }, { apiKey: tenant.apiKey });
    expect(cleared.body.results.subscriptions).toEqual([{ target: PAGE, status: 'subscribed' }]);
  });

  it('a connection without the permissions leads need is SCOPE_MISSING, naming them; nothing is subscribed', async () => {
    const apiKey = await newTenant();
    const { userId } = await newSocialUser(apiKey, { pageId: PAGE });
    // connected through a link before leads were asked for: its grant names the scopes it has
    const tenantId = (await findTenantIdByKeyHash(hashApiKey(apiKey))) as string;
    const user = (await findUser(tenantId, userId)) as NonNullable<Awaited<ReturnType<typeof findUser>>>;
    const audit = { tenantId, action: 'connection.connected' as const, target: { type: 'connection' as const, id: 'social' } };
    await saveLinkedConnection(
      user,
      'social',
      { adAccountId: DEMO_CONNECTIONS.social.adAccountId, pageId: PAGE, scopes: 'ads_management ads_read' },
      { accessToken: `EAAscopes${Date.now()}` },
      audit,
    );
    const refused = await call('/leads/subscribe', { userId, platform: 'social' }, { apiKey });
    expect(refused.body.results).toMatchObject({ success: false, code: 'SCOPE_MISSING', scope: 'leads_retrieval, pages_manage_metadata' });
  });
});

describe('leads from the professional network', () => {
  it('a notification reaches the tenant as one lead.received, the account subscribed after its webhook passed the challenge', async () => {
    const apiKey = await newTenant();
    const path = `/leads-li-${Math.random().toString(16).slice(2)}`;
    const settings = await call('/tenant/update_settings', { webhook: { url: `${receiver.url}${path}` } }, { apiKey });
    const tenant = { path, secret: settings.body.results.webhookSecret as string };
    const userId = await newUser(apiKey, { professional: { ...DEMO_CONNECTIONS.professional } });
    const subscribed = await call('/leads/subscribe', { userId, platform: 'professional' }, { apiKey });
    expect(subscribed.body.results.subscriptions).toEqual([{ target: DEMO_CONNECTIONS.professional.adAccountId, status: 'subscribed' }]);
    const made = await makeLeads('professional', { accountId: DEMO_CONNECTIONS.professional.adAccountId });
    const [leadId] = made.leadIds as [string];
    await expect.poll(() => leadsReceived(tenant).map((event) => event.data.lead.leadId)).toEqual([leadId]);
    expect(leadsReceived(tenant)[0]?.data.lead).toMatchObject({
      platform: 'professional',
      formId: '900000501',
      fields: { firstName: 'Sandbox', fullName: expect.any(String) },
    });
    // the same notification replayed: nothing more
    const notice = JSON.stringify({
      type: 'LEAD_ACTION',
      leadGenFormResponse: `urn:li:leadGenFormResponse:${leadId}`,
      owner: { sponsoredAccount: `urn:li:sponsoredAccount:${DEMO_CONNECTIONS.professional.adAccountId}` },
      leadType: 'SPONSORED',
      leadAction: 'CREATED',
      occurredAt: 1,
    });
    expect((await postWebhook('professional', notice, professionalSignatureOf(notice, SANDBOX_APP_CREDENTIALS.PROFESSIONAL_CLIENT_SECRET))).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(leadsReceived(tenant)).toHaveLength(1);
  });

  it('a DELETED notification erases the tenant’s copy; the lead is not stored again', async () => {
    const apiKey = await newTenant();
    const userId = await newUser(apiKey, { professional: { ...DEMO_CONNECTIONS.professional } });
    await call('/leads/subscribe', { userId, platform: 'professional' }, { apiKey });
    const [leadId] = (await makeLeads('professional', { accountId: DEMO_CONNECTIONS.professional.adAccountId })).leadIds as [string];
    const listed = async () =>
      ((await call('/leads/list_leads', { userId, platform: 'professional' }, { apiKey })).body.results.leads as Array<{ lead: { leadId: string } }>).map(
        (entry) => entry.lead.leadId,
      );
    await expect.poll(listed).toContain(leadId);
    const deleted = JSON.stringify({
      type: 'LEAD_ACTION',
      leadGenFormResponse: `urn:li:leadGenFormResponse:${leadId}`,
      owner: { sponsoredAccount: `urn:li:sponsoredAccount:${DEMO_CONNECTIONS.professional.adAccountId}` },
      leadType: 'SPONSORED',
      leadAction: 'DELETED',
      occurredAt: 2,
    });
    expect((await postWebhook('professional', deleted, professionalSignatureOf(deleted, SANDBOX_APP_CREDENTIALS.PROFESSIONAL_CLIENT_SECRET))).status).toBe(200);
    await expect.poll(listed).not.toContain(leadId);
    await sweepPage('professional', DEMO_CONNECTIONS.professional.adAccountId);
    expect(await listed()).not.toContain(leadId);
  });

  it('the validation handshake answers the challenge with its HMAC; the social verification echoes only for our token', async () => {
    const code = '890e4665-4dfe-4ab1-b689-ed553bceeed0';
    const validation = await fetch(`${stack().url}/platform-webhooks/professional?challengeCode=${code}`);
    expect(validation.headers.get('content-type')).toContain('application/json');
    expect(await validation.json()).toEqual({
      challengeCode: code,
      challengeResponse: createHmac('sha256', SANDBOX_APP_CREDENTIALS.PROFESSIONAL_CLIENT_SECRET).update(code).digest('hex'),
    });
    const verify = (token: string) => fetch(`${stack().url}/platform-webhooks/social?hub.mode=subscribe&hub.challenge=1158201444&hub.verify_token=${token}`);
    const good = await verify(SANDBOX_APP_CREDENTIALS.SOCIAL_WEBHOOK_VERIFY_TOKEN);
    expect([good.status, await good.text()]).toEqual([200, '1158201444']);
    expect((await verify('another-token')).status).toBe(403);
  });
});

describe('what a hostile client and three tenants on one Page found', () => {
  const appSecret = SANDBOX_APP_CREDENTIALS.SOCIAL_APP_SECRET;
  let shared: Awaited<ReturnType<typeof socialTenant>>;
  let sharedForm: string;
  beforeAll(async () => {
    shared = await socialTenant();
    sharedForm = await leadForm(shared.apiKey, shared.user.userId);
  });
  const unsubscribesOf = async (pageId: string, from: number) =>
    (await upstreamRequests('social', from)).filter((request) => request.method === 'DELETE' && request.path.endsWith(`/${pageId}/subscribed_apps`));

  it('one tenant’s unsubscribe removes only its own routing: the Page stays subscribed while another tenant takes its leads', async () => {
    const [first, second] = [await socialTenant(THIRD_PAGE_ID), await socialTenant(THIRD_PAGE_ID)];
    const formId = await leadForm(second.apiKey, second.user.userId);
    const from = (await upstreamRequests('social')).length;
    const gone = await call('/leads/unsubscribe', { userId: first.user.userId, platform: 'social' }, { apiKey: first.apiKey });
    expect(gone.body.results.subscriptions).toEqual([{ target: THIRD_PAGE_ID, status: 'unsubscribed' }]);
    expect(await unsubscribesOf(THIRD_PAGE_ID, from)).toEqual([]);
    // the other tenant still gets the Page's leads in real time, not from the hourly sweep
    const made = await makeLeads('social', { formId });
    expect(made.webhook).toEqual({ status: 200 });
    await expect.poll(() => timesReceived(second, made.leadIds)).toEqual([1]);
    expect(timesReceived(first, made.leadIds)).toEqual([0]);
    // the last one to leave removes the platform's subscription
    await call('/leads/unsubscribe', { userId: second.user.userId, platform: 'social' }, { apiKey: second.apiKey });
    expect(await unsubscribesOf(THIRD_PAGE_ID, from)).toHaveLength(1);
    expect((await makeLeads('social', { formId })).webhook).toBe('not sent');
  });

  it('erase_lead ends a pending delivery: no later attempt carries the person’s values, and the event shows erased', async () => {
    const apiKey = await newTenant();
    const path = `/erased-${Math.random().toString(16).slice(2)}`;
    // the receiver answers 500: the delivery is retried on its schedule
    const failing = await scriptedServer(() => ({ status: 500 }));
    try {
      await call('/tenant/update_settings', { webhook: { url: `${failing.url}${path}` } }, { apiKey });
      const user = await newSocialUser(apiKey, { pageId: PAGE });
      await call('/leads/subscribe', { userId: user.userId, platform: 'social' }, { apiKey });
      const formId = await leadForm(apiKey, user.userId);
      const [leadId] = (await makeLeads('social', { formId })).leadIds as [string];
      await expect.poll(() => failing.received.filter((request) => request.url === path).length).toBeGreaterThanOrEqual(1);
      const erased = await call('/leads/erase_lead', { userId: user.userId, leadId }, { apiKey });
      expect(erased.body.results).toEqual({ success: true, leadId, erased: true });
      const attempts = failing.received.filter((request) => request.url === path).length;
      const listed = await call('/tenant/list_webhook_events', {}, { apiKey });
      const event = (listed.body.results.events as Array<{ type: string; status: string }>).find((each) => each.type === 'lead.received');
      expect(event?.status).toBe('erased');
      const tenantId = (await findTenantIdByKeyHash(hashApiKey(apiKey))) as string;
      const { Items } = await documentStore().send(
        new QueryCommand({
          TableName: mainTableName(),
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': keys.webhookEventsPk(tenantId) },
        }),
      );
      const stored = (Items ?? []).find((item) => item.type === 'lead.received');
      // the retry its failed attempt queued arrives (the message is the event's reference), and the sweep passes over what is due
      expect(await attemptDelivery({ tenantId, sk: String(stored?.sk) })).toEqual({});
      await sweepFlows();
      expect(failing.received.filter((request) => request.url === path)).toHaveLength(attempts);
      // and the event kept at rest holds none of the person's values, and it is out of the due index: nothing is left for a sweep
      const again = await documentStore().send(
        new GetCommand({ TableName: mainTableName(), Key: { pk: keys.webhookEventsPk(tenantId), sk: String(stored?.sk) } }),
      );
      expect(again.Item?.sealedData).toBeUndefined();
      expect(again.Item?.status).toBe('erased');
      expect(again.Item?.dueShard).toBeUndefined();
      expect(again.Item?.dueAt).toBeUndefined();
    } finally {
      await failing.close();
    }
  });

  it('a validly signed body of any size up to 1 MB is stored (in the bucket when too large for an item) and processed', async () => {
    const tenant = shared;
    const [leadId] = (await makeLeads('social', { formId: sharedForm, webhook: false })).leadIds as [string];
    // a real notice padded with changes of another field, to about 700 KB
    const padding = Array.from({ length: 7000 }, (_, index) => ({ field: 'feed', value: { item: 'status', post_id: `${index}`, message: 'x'.repeat(60) } }));
    const body = JSON.stringify({
      object: 'page',
      entry: [
        { id: PAGE, time: 5, changes: [{ field: 'leadgen', value: { leadgen_id: leadId, page_id: PAGE, form_id: sharedForm, created_time: 1 } }, ...padding] },
      ],
    });
    expect(body.length).toBeGreaterThan(600_000);
    expect(body.length).toBeLessThan(1_048_576);
    const answer = await postWebhook('social', body, socialSignatureOf(body, appSecret));
    expect(answer.status).toBe(200);
    expect(await findInbound('social', createHash('sha256').update(body).digest('hex'))).toBe(body);
    await expect.poll(() => timesReceived(tenant, [leadId])).toEqual([1]);
  });

  it('a validly signed body of no known shape is kept, marked processed and never retried; a verify token in any encoding is 403', async () => {
    for (const body of ['this is not JSON {', '{"object":"user","entry":[]}', '[1,2,3]']) {
      const hash = createHash('sha256').update(body).digest('hex');
      expect((await postWebhook('social', body, socialSignatureOf(body, appSecret))).status).toBe(200);
      expect(await findInbound('social', hash)).toBe(body);
      // processed: it left the due index, so neither the queue nor the sweep takes it again
      await expect
        .poll(async () => (await documentStore().send(new GetCommand({ TableName: mainTableName(), Key: inboundKey('social', hash) }))).Item?.dueShard)
        .toBeUndefined();
    }
    const verify = (token: string) =>
      fetch(`${stack().url}/platform-webhooks/social?hub.mode=subscribe&hub.challenge=1158201444&hub.verify_token=${encodeURIComponent(token)}`);
    for (const token of ['sändbox-social-verify-töken', '🔑'.repeat(7), `${SANDBOX_APP_CREDENTIALS.SOCIAL_WEBHOOK_VERIFY_TOKEN}é`, 'ü'.repeat(27)])
      expect((await verify(token)).status, token).toBe(403);
  });

  it('list_leads with since after until is a 400 naming until; since equal to until is a range of one instant', async () => {
    const until = new Date(Date.now() - 3_600_000).toISOString();
    const since = new Date(Date.now()).toISOString();
    const inverted = await call('/leads/list_leads', { userId: shared.user.userId, since, until }, { apiKey: shared.apiKey });
    expect(inverted.status).toBe(400);
    expect(inverted.body.results.details).toEqual([{ path: 'until', message: 'must not be before since' }]);
    const instant = await call('/leads/list_leads', { userId: shared.user.userId, since: until, until }, { apiKey: shared.apiKey });
    expect(instant.status).toBe(200);
  });

  it('a connection given as tokens whose subscription the platform refuses for a permission is SCOPE_MISSING naming the leads permissions', async () => {
    const apiKey = await newTenant();
    const { userId } = await newSocialUser(apiKey, { pageId: THIRD_PAGE_ID });
    await injectFault('social', {
      pathIncludes: `/${THIRD_PAGE_ID}/subscribed_apps`,
      method: 'POST',
      status: 403,
      body: {
        error: { message: '(#200) Requires pages_manage_metadata permission to manage the object', type: 'OAuthException', code: 200, fbtrace_id: 'A1' },
      },
    });
    const refused = await call('/leads/subscribe', { userId, platform: 'social' }, { apiKey });
    expect(refused.body.results).toMatchObject({ success: false, code: 'SCOPE_MISSING', scope: 'leads_retrieval, pages_manage_metadata' });
    const tenantId = (await findTenantIdByKeyHash(hashApiKey(apiKey))) as string;
    expect((await subscriptionsOf('social', THIRD_PAGE_ID)).filter((subscription) => subscription.tenantId === tenantId)).toEqual([]);
  });
});
