import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clock } from '../../shared/core/clock.ts';
import { PROFESSIONAL_API_VERSION, SEARCHADS_API_VERSION, SOCIAL_API_VERSION } from '../../shared/core/versions.ts';
import { analyticsQuery } from '../../shared/platforms/professional/analytics.ts';
import { dailyQuery } from '../../shared/platforms/searchads/stats.ts';
import { INSIGHT_FIELDS } from '../../shared/platforms/social/insights.ts';
import { DEMO_CONNECTIONS, SANDBOX_APP_CREDENTIALS } from '../../local/sandbox/demo-data.ts';
import { type ProfessionalSandbox, startProfessionalSandbox } from '../../local/sandbox/professional.ts';
import { type SearchadsSandbox, startSearchadsSandbox } from '../../local/sandbox/searchads.ts';
import { type SocialSandbox, startSocialSandbox } from '../../local/sandbox/social.ts';
import { fixture } from '../helpers/fixtures.ts';

/**
 * The sandboxes against the project's recorded platform answers (test/fixtures): each exchange is
 * sent to the sandbox as the service sends it, and the sandbox's answer must have the recorded
 * answer's shape: every field the platform gave, at the same place, of the same JSON type (a number
 * the platform writes as a string stays a string). A sandbox that drifts from the platform fails here,
 * not in a test that trusts it.
 */
type Json = unknown;
function shapeProblems(actual: Json, recorded: Json, path = '$'): string[] {
  const kind = (value: Json) => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);
  if (kind(actual) !== kind(recorded)) return [`${path}: ${kind(recorded)} recorded, ${kind(actual)} answered`];
  if (Array.isArray(recorded)) {
    // one element of the answer with the recorded element's shape (the platforms leave empty lists out of a row)
    const [first] = recorded;
    if (first === undefined) return [];
    const tried = (actual as Json[]).map((answered) => shapeProblems(answered, first, `${path}[]`));
    if (tried.length === 0) return [`${path}: a non-empty list recorded, an empty one answered`];
    return tried.reduce((best, problems) => (problems.length < best.length ? problems : best));
  }
  if (kind(recorded) === 'object') {
    return Object.entries(recorded as Record<string, Json>).flatMap(([key, value]) =>
      key in (actual as Record<string, Json>) ? shapeProblems((actual as Record<string, Json>)[key], value, `${path}.${key}`) : [`${path}.${key}: missing`],
    );
  }
  return [];
}
const expectShape = (actual: Json, recorded: Json) => expect(shapeProblems(actual, recorded)).toEqual([]);

let social: SocialSandbox;
let searchads: SearchadsSandbox;
let professional: ProfessionalSandbox;
beforeAll(async () => {
  [social, searchads, professional] = await Promise.all([startSocialSandbox(), startSearchadsSandbox(), startProfessionalSandbox()]);
});
afterAll(async () => {
  await Promise.all([social?.close(), searchads?.close(), professional?.close()]);
});

describe('social sandbox', () => {
  const token = DEMO_CONNECTIONS.social.accessToken;
  const proof = (value: string) => createHmac('sha256', SANDBOX_APP_CREDENTIALS.SOCIAL_APP_SECRET).update(value).digest('hex');
  const graph = async (path: string, query: Record<string, string> = {}, accessToken: string = token) => {
    const params = new URLSearchParams({ ...query, access_token: accessToken, appsecret_proof: proof(accessToken) });
    const response = await fetch(`${social.url}/${SOCIAL_API_VERSION}${path}?${params}`);
    return { status: response.status, body: (await response.json()) as Json };
  };

  /** the recorded elements cut to the fields the service asks for (shared/platforms/social/connect.ts) */
  const asked = (rows: Array<Record<string, any>>, fields: string[], nested: Record<string, string[]> = {}) =>
    rows.map((row) =>
      Object.fromEntries(
        fields
          .filter((field) => field in row)
          .map((field) => [field, nested[field] ? Object.fromEntries(nested[field].map((key) => [key, row[field][key]])) : row[field]]),
      ),
    );

  it('GET /me/adaccounts, as the connect flow asks, answers as social-me-adaccounts.json', async () => {
    const fields = ['id', 'account_id', 'name', 'account_status', 'currency', 'user_tasks'];
    const { status, body } = await graph('/me/adaccounts', { fields: fields.join(',') });
    expect(status).toBe(200);
    expectShape(body, { data: asked(fixture('connect/social-me-adaccounts.json').data, fields) });
  });

  it('GET /me/accounts, as the connect flow asks, answers as social-me-accounts.json', async () => {
    const { status, body } = await graph('/me/accounts', { fields: 'id,name,tasks,instagram_business_account{id}' });
    expect(status).toBe(200);
    const recorded = asked(fixture('connect/social-me-accounts.json').data, ['id', 'name', 'tasks', 'instagram_business_account'], {
      instagram_business_account: ['id'],
    });
    expectShape(body, { data: recorded });
  });

  it('GET /me/permissions answers as social-me-permissions.json', async () => {
    const { status, body } = await graph('/me/permissions');
    expect(status).toBe(200);
    expectShape(body, fixture('connect/social-me-permissions.json'));
  });

  it('a campaign’s daily insights answer as meta-insights-campaign-daily.json', async () => {
    const recorded = fixture('control/meta-insights-campaign-daily.json');
    const fields = INSIGHT_FIELDS.split(',');
    const campaigns = await graph(`/act_${DEMO_CONNECTIONS.social.adAccountId}/campaigns`, { fields: 'id' });
    const campaignId = (campaigns.body as { data: Array<{ id: string }> }).data[0]?.id as string;
    const { status, body } = await graph(`/${campaignId}/insights`, {
      fields: INSIGHT_FIELDS,
      time_increment: '1',
      time_range: JSON.stringify({ since: clock.today(-7), until: clock.today(-1) }),
    });
    expect(status, JSON.stringify(body)).toBe(200);
    expectShape((body as { data: Json[] }).data, asked(recorded.data, fields));
  });

  it.each([
    ['an expired token', 'EAAxEXPIREDxToken0001', 'social/error_190_token_expired.json'],
    ['a token that cannot be parsed', 'not-a-token', 'social/error_190_token_invalid.json'],
  ])('%s answers as %s', async (_case, accessToken, file) => {
    const { status, body } = await graph('/me', {}, accessToken);
    expect(status).toBe(400);
    expectShape(body, fixture(file));
  });

  it('an object that is not there answers as error_100_unknown_object.json', async () => {
    const { status, body } = await graph('/999999999999999');
    expect(status).toBe(400);
    expectShape(body, fixture('social/error_100_unknown_object.json'));
  });
});

describe('search-ads sandbox', () => {
  let accessToken = '';
  const headers = () => ({
    authorization: `Bearer ${accessToken}`,
    'content-type': 'application/json',
  });
  beforeAll(async () => {
    const response = await fetch(`${searchads.url}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: DEMO_CONNECTIONS.searchads.refreshToken,
        client_id: SANDBOX_APP_CREDENTIALS.SEARCHADS_CLIENT_ID,
        client_secret: SANDBOX_APP_CREDENTIALS.SEARCHADS_CLIENT_SECRET,
      }),
    });
    const body = (await response.json()) as { access_token: string };
    expectShape(body, fixture('searchads/oauth-token.response.json'));
    accessToken = body.access_token;
  });

  it('listAccessibleCustomers answers as searchads-list-accessible-customers.json', async () => {
    const response = await fetch(`${searchads.url}/${SEARCHADS_API_VERSION}/customers:listAccessibleCustomers`, { headers: headers() });
    expect(response.status).toBe(200);
    expectShape(await response.json(), fixture('connect/searchads-list-accessible-customers.json'));
  });

  it('the daily searchStream answers as search-stream-campaign-daily.response.json', async () => {
    const cid = DEMO_CONNECTIONS.searchads.customerId;
    const seeded = await fetch(`${searchads.url}/__sandbox/campaigns`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ account: cid, count: 1 }),
    });
    const [campaignId] = ((await seeded.json()) as { ids: string[] }).ids;
    const response = await fetch(`${searchads.url}/${SEARCHADS_API_VERSION}/customers/${cid}/googleAds:searchStream`, {
      method: 'POST',
      headers: headers(),
      body: JSON.stringify({ query: dailyQuery(campaignId as string, clock.today(-7), clock.today(-1)) }),
    });
    expect(response.status).toBe(200);
    const recorded = fixture('searchads/search-stream-campaign-daily.response.json') as Array<{ results: Array<{ campaign: Record<string, Json> }> }>;
    // a repeated field is left out of the JSON when it is empty (proto3): the sandbox's campaign has no reasons
    for (const row of recorded[0]?.results ?? []) delete row.campaign.primaryStatusReasons;
    const answered = (await response.json()) as Array<{ results: Json[] }>;
    expectShape(answered[0]?.results, recorded[0]?.results);
  });

  it.each(['mutate-create-search-campaign.request.json', 'mutate-create-search-campaign-conversion.request.json'])(
    'the recorded mutate %s is valid to the sandbox (validateOnly)',
    async (file) => {
      const request = { ...fixture(`searchads/${file}`), validateOnly: true };
      const response = await fetch(`${searchads.url}/${SEARCHADS_API_VERSION}/customers/${DEMO_CONNECTIONS.searchads.customerId}/googleAds:mutate`, {
        method: 'POST',
        headers: headers(),
        body: JSON.stringify(request).replaceAll('customers/1234567890', `customers/${DEMO_CONNECTIONS.searchads.customerId}`),
      });
      expect(response.status, await response.clone().text()).toBe(200);
    },
  );

  it('a token it never issued answers as error-unauthenticated-expired-token.json', async () => {
    const response = await fetch(`${searchads.url}/${SEARCHADS_API_VERSION}/customers:listAccessibleCustomers`, {
      headers: { ...headers(), authorization: 'Bearer ya29.not-issued-by-the-sandbox' },
    });
    expect(response.status).toBe(401);
    expectShape(await response.json(), fixture('searchads/error-unauthenticated-expired-token.json'));
  });
});

describe('professional sandbox', () => {
  const rest = (path: string, token: string = DEMO_CONNECTIONS.professional.accessToken) =>
    fetch(`${professional.url}/rest${path}`, {
      headers: { authorization: `Bearer ${token}`, 'linkedin-version': PROFESSIONAL_API_VERSION, 'x-restli-protocol-version': '2.0.0' },
    });

  it('daily analytics of an account’s campaigns answer as li-adanalytics-account-campaigns-daily.json', async () => {
    const recorded = fixture('control/li-adanalytics-account-campaigns-daily.json');
    const query = analyticsQuery({ accountId: DEMO_CONNECTIONS.professional.adAccountId }, clock.today(-7), clock.today(-1));
    const response = await rest(`/adAnalytics?${query}`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { elements: Json[] };
    expectShape(body.elements, recorded.elements);
  });

  it.each([
    ['an expired token', 'AQVxEXPIREDxToken01', 'professional/error-401-expired-token.json'],
    ['a revoked token', 'AQVxREVOKEDxToken01', 'professional/error-401-revoked-token.json'],
    ['a token it cannot read', 'garbage', 'professional/error-401-invalid-token.json'],
  ])('%s answers as %s', async (_case, token, file) => {
    const recorded = fixture(file).response as { status: number; body: Json };
    const response = await rest(`/adAccounts/${DEMO_CONNECTIONS.professional.adAccountId}`, token);
    expect(response.status).toBe(recorded.status);
    expectShape(await response.json(), recorded.body);
  });
});
