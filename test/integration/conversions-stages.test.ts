import { randomBytes, randomInt } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, newTenant, newUser, stack } from '../helpers/api.ts';
import { upstreamRequests, upstreamRequestsWith } from '../helpers/sandbox.ts';

/**
 * Where a user's CRM outcomes can go, and the funnel mapped to it (docs/conversions.md): each platform's
 * destinations read from its own listing (social datasets, search-ads UPLOAD_CLICKS actions the customer
 * owns, professional Conversions API rules that are enabled), and set_stages accepting only those.
 */
let apiKey = '';
beforeAll(async () => {
  apiKey = await newTenant();
});

const control = async (platform: 'social' | 'professional', path: string, body: unknown) => {
  const response = await fetch(`${stack().sandboxes[platform]}/__sandbox/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
};

/** A user on accounts of its own on all three platforms, with the markers its requests carry. */
async function connectedUser() {
  const marker = randomBytes(6).toString('hex');
  const socialAccount = String(randomInt(300_000_000_000_000, 399_999_999_999_999));
  const customerId = String(randomInt(1_000_000_000, 6_999_999_999));
  const professionalAccount = String(randomInt(520_000_000, 529_999_999));
  const tokens = { social: `EAAconv${marker}`, searchads: `1//conv-${marker}`, professional: `AQVconv${marker}` };
  await control('social', 'datasets', {
    account: socialAccount,
    datasets: [
      { id: '771100000000001', name: 'CRM events', is_unavailable: false },
      { id: '771100000000002', name: 'Unavailable', is_unavailable: true },
    ],
  });
  await control('professional', 'conversion-rules', {
    account: professionalAccount,
    rules: [
      { id: 710000001, name: 'CRM MQL', conversionMethod: 'CONVERSIONS_API', enabled: true, type: 'MARKETING_QUALIFIED_LEAD' },
      { id: 710000002, name: 'Tag sign-up', conversionMethod: 'INSIGHT_TAG', enabled: true, type: 'SIGN_UP' },
      { id: 710000003, name: 'CRM old', conversionMethod: 'CONVERSIONS_API', enabled: false, type: 'LEAD' },
    ],
  });
  const userId = await newUser(apiKey, {
    social: { accessToken: tokens.social, adAccountId: socialAccount },
    searchads: { refreshToken: tokens.searchads, customerId },
    professional: { accessToken: tokens.professional, adAccountId: professionalAccount },
  });
  return { userId, tokens, socialAccount, customerId, professionalAccount };
}

const destinations = (userId: string, platform: string) => call('/conversions/list_destinations', { userId, platform }, { apiKey });

describe('list_destinations', () => {
  it('social: the ad account’s datasets the platform can take events on, from one adspixels read', async () => {
    const user = await connectedUser();
    const listed = await destinations(user.userId, 'social');
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.results).toEqual({
      success: true,
      platform: 'social',
      destinations: [{ destinationId: '771100000000001', name: 'CRM events', kind: 'dataset' }],
    });
    const requests = await upstreamRequestsWith('social', user.tokens.social);
    expect(requests.map((request) => `${request.method} ${request.path}`)).toEqual([`GET /v26.0/act_${user.socialAccount}/adspixels`]);
    expect(requests[0]?.query).toMatchObject({ fields: 'id,name,is_unavailable', limit: '100' });
  });

  it('social: an account without datasets offers those its business owns', async () => {
    const user = await connectedUser();
    await control('social', 'datasets', {
      account: user.socialAccount,
      datasets: [],
      business: '880000000000001',
      businessDatasets: [{ id: '771100000000009', name: 'Business dataset', is_unavailable: false }],
    });
    const listed = await destinations(user.userId, 'social');
    expect(listed.body.results.destinations).toEqual([{ destinationId: '771100000000009', name: 'Business dataset', kind: 'dataset' }]);
    const paths = (await upstreamRequestsWith('social', user.tokens.social)).map((request) => request.path);
    expect(paths).toEqual([`/v26.0/act_${user.socialAccount}/adspixels`, `/v26.0/act_${user.socialAccount}`, '/v26.0/880000000000001/owned_pixels']);
  });

  it('search ads: the enabled UPLOAD_CLICKS actions the customer owns, from one GAQL query', async () => {
    const user = await connectedUser();
    const listed = await destinations(user.userId, 'searchads');
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.results.destinations).toEqual([
      { destinationId: '6543210987', name: 'CRM - Qualified lead', kind: 'conversion_action' },
      { destinationId: '6543210989', name: 'CRM - Won deal', kind: 'conversion_action' },
    ]);
    const streams = (await upstreamRequests('searchads')).filter((request) => request.path.includes(`/customers/${user.customerId}/`));
    expect(streams).toHaveLength(1);
    expect(streams[0]?.path).toBe(`/v26/customers/${user.customerId}/googleAds:searchStream`);
    expect(JSON.parse(streams[0]?.body ?? '{}').query).toMatch(
      /FROM conversion_action WHERE conversion_action\.type = 'UPLOAD_CLICKS' AND conversion_action\.status = 'ENABLED'$/,
    );
  });

  it('professional: the enabled Conversions API rules, from the account finder with the version header', async () => {
    const user = await connectedUser();
    const listed = await destinations(user.userId, 'professional');
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.results.destinations).toEqual([{ destinationId: '710000001', name: 'CRM MQL', kind: 'conversion_rule' }]);
    const [request, ...more] = await upstreamRequestsWith('professional', user.tokens.professional);
    expect(more).toEqual([]);
    expect(request?.path).toBe('/rest/conversions');
    expect(request?.rawQuery).toBe(`?q=account&account=urn%3Ali%3AsponsoredAccount%3A${user.professionalAccount}&start=0&count=100`);
    expect(request?.headers).toMatchObject({ 'linkedin-version': expect.stringMatching(/^\d{6}$/), 'x-restli-protocol-version': '2.0.0' });
  });

  it('professional: a grant the platform refuses for conversions answers SCOPE_MISSING naming rw_conversions', async () => {
    const marker = randomBytes(6).toString('hex');
    const userId = await newUser(apiKey, { professional: { accessToken: `AQVNOCONVERSIONS${marker}`, adAccountId: '500000001' } });
    const listed = await destinations(userId, 'professional');
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.results).toMatchObject({ success: false, code: 'SCOPE_MISSING', platform: 'professional', scope: 'rw_conversions' });
  });

  it('a platform the user is not connected to is PLATFORM_NOT_CONNECTED, another tenant’s user USER_NOT_FOUND, and an unknown platform 400: no platform call', async () => {
    const socialOnly = await newUser(apiKey, { social: { accessToken: `EAAonly${randomBytes(6).toString('hex')}`, adAccountId: '284756109384756' } });
    expect((await destinations(socialOnly, 'professional')).body.results.code).toBe('PLATFORM_NOT_CONNECTED');
    const other = await newTenant();
    const stranger = await newUser(other, { social: { accessToken: `EAAstranger${randomBytes(6).toString('hex')}`, adAccountId: '284756109384756' } });
    const foreign = await destinations(stranger, 'social');
    expect(foreign.status).toBe(404);
    expect(foreign.body.results.code).toBe('USER_NOT_FOUND');
    const unknown = await destinations(socialOnly, 'tiktok');
    expect(unknown.status).toBe(400);
    expect(unknown.body.results.details).toEqual([expect.objectContaining({ path: 'platform' })]);
  });
});

describe('set_stages and get_stages', () => {
  const funnel = () => [
    { stage: 'Lead', social: { datasetId: '771100000000001', eventName: 'Lead' }, professional: { conversionRuleId: '710000001' } },
    { stage: 'Qualified', social: { datasetId: '771100000000001', eventName: 'QualifiedLead' }, searchads: { conversionActionId: '6543210987' } },
    { stage: 'Won', searchads: { conversionActionId: '6543210989' } },
  ];

  it('stores the funnel once every destination is one the platforms list, reads it back in order, and audits the count', async () => {
    const user = await connectedUser();
    const before = await call('/conversions/get_stages', { userId: user.userId }, { apiKey });
    expect(before.body.results).toEqual({ success: true, stages: [] });
    const set = await call('/conversions/set_stages', { userId: user.userId, crmName: 'HubSpot', stages: funnel() }, { apiKey });
    expect(set.status, set.text).toBe(200);
    expect(set.body.results).toEqual({ success: true, crmName: 'HubSpot', stages: funnel(), updatedAt: expect.any(String) });
    const read = await call('/conversions/get_stages', { userId: user.userId }, { apiKey });
    expect(read.body.results).toEqual(set.body.results);
    const { events } = (await call('/tenant/list_audit_events', { action: 'conversions.stages_set' }, { apiKey })).body.results;
    expect(events.filter((event: { userId: string }) => event.userId === user.userId)).toEqual([
      expect.objectContaining({ target: { type: 'conversion_stages', id: user.userId }, changes: { stages: { to: 3 } }, outcome: 'succeeded' }),
    ]);
    // one listing read per platform named, whatever the number of stages
    expect((await upstreamRequestsWith('social', user.tokens.social)).length).toBe(1);
    expect((await upstreamRequestsWith('professional', user.tokens.professional)).length).toBe(1);
  });

  it('a destination the connection cannot send to is 400 DESTINATION_NOT_FOUND naming it, and the stored funnel stays', async () => {
    const user = await connectedUser();
    await call('/conversions/set_stages', { userId: user.userId, crmName: 'HubSpot', stages: funnel() }, { apiKey });
    const stored = (await call('/conversions/get_stages', { userId: user.userId }, { apiKey })).body.results;
    for (const [stage, platform, destinationId] of [
      [{ stage: 'Lead', social: { datasetId: '771100000000002', eventName: 'Lead' } }, 'social', '771100000000002'],
      [{ stage: 'Lead', searchads: { conversionActionId: '6543210988' } }, 'searchads', '6543210988'],
      [{ stage: 'Lead', searchads: { conversionActionId: '6543210990' } }, 'searchads', '6543210990'],
      [{ stage: 'Lead', professional: { conversionRuleId: '710000002' } }, 'professional', '710000002'],
    ] as const) {
      const refused = await call('/conversions/set_stages', { userId: user.userId, crmName: 'Pipedrive', stages: [stage] }, { apiKey });
      expect(refused.status, refused.text).toBe(400);
      expect(refused.body.results).toMatchObject({ success: false, code: 'DESTINATION_NOT_FOUND', platform, destinationId });
      expect(refused.body.results.error).toContain('/conversions/list_destinations');
    }
    expect((await call('/conversions/get_stages', { userId: user.userId }, { apiKey })).body.results).toEqual(stored);
  });

  it('refuses a malformed funnel with a clear error before any platform call', async () => {
    const user = await connectedUser();
    const lead = { stage: 'Lead', social: { datasetId: '771100000000001', eventName: 'Lead' } };
    const cases: Array<[unknown, string]> = [
      [[], 'stages'],
      [Array.from({ length: 11 }, (_, index) => ({ ...lead, stage: `S${index}` })), 'stages'],
      [[lead, { ...lead, stage: 'lead' }], 'stages.1.stage'],
      [[{ ...lead, stage: 'Closed won' }], 'stages.0.stage'],
      [[{ ...lead, stage: '1st' }], 'stages.0.stage'],
      [[{ stage: 'Lead', social: { datasetId: 'act_1', eventName: 'Lead' } }], 'stages.0.social.datasetId'],
      [[{ ...lead, tiktok: { id: '1' } }], 'stages.0'],
    ];
    for (const [stages, path] of cases) {
      const refused = await call('/conversions/set_stages', { userId: user.userId, crmName: 'HubSpot', stages }, { apiKey });
      expect(refused.status, JSON.stringify(stages)).toBe(400);
      expect(refused.body.results.code).toBe('INVALID_REQUEST');
      expect(refused.body.results.details.map((detail: { path: string }) => detail.path)).toContain(path);
    }
    const noCrm = await call('/conversions/set_stages', { userId: user.userId, stages: [lead] }, { apiKey });
    expect(noCrm.body.results.details).toEqual([expect.objectContaining({ path: 'crmName' })]);
    expect(await upstreamRequestsWith('social', user.tokens.social)).toEqual([]);
    expect((await call('/conversions/get_stages', { userId: user.userId }, { apiKey })).body.results).toEqual({ success: true, stages: [] });
  });
});
