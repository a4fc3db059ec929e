import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, newTenant, stack } from '../helpers/api.ts';
import { injectFault, upstreamRequestsWith } from '../helpers/sandbox.ts';
import { expectedProof, newSocialUser } from '../helpers/social.ts';

/**
 * Campaign control on the social platform, through the gateway against the social sandbox: the read,
 * the one write and nothing else upstream; every refusal decided with nothing written; exact money in
 * the currency's minor unit; the hourly budget-change limit kept before the call; the history entry
 * and the audit event of each applied change.
 */
const USD_ACCOUNT = '1200000000000101';
const JPY_ACCOUNT = '1200000000000002';
const KWD_ACCOUNT = '1200000000000003';

let apiKey = '';
beforeAll(async () => {
  apiKey = await newTenant();
});

/** A campaign made in the sandbox the way the platform makes one, with the user's token. */
async function campaignIn(account: string, token: string, fields: Record<string, string> = {}): Promise<string> {
  const response = await fetch(`${stack().sandboxes.social}/v26.0/act_${account}/campaigns`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      access_token: token,
      appsecret_proof: expectedProof(token),
      name: `Control ${randomUUID()}`,
      objective: 'OUTCOME_TRAFFIC',
      special_ad_categories: '[]',
      status: 'ACTIVE',
      // a campaign without a campaign budget says whether its ad sets share theirs (the platform requires it)
      ...(fields.daily_budget === undefined && fields.lifetime_budget === undefined ? { is_adset_budget_sharing_enabled: 'false' } : {}),
      ...fields,
    }),
  });
  const body = (await response.json()) as { id: string };
  return body.id;
}

async function userWith(account: string) {
  return newSocialUser(apiKey, { adAccountId: account });
}

const status = (userId: string, campaignId: string, wanted: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
  call('/social/update_campaign_status', { userId, campaignId, status: wanted, ...extra }, { apiKey, headers });
const budget = (userId: string, campaignId: string, amount: unknown, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
  call('/social/edit_campaign', { userId, campaignId, editLevel: 'BUDGET', amount, ...extra }, { apiKey, headers });

/** What the service sent upstream for this user (the test's own campaign creations left out): method, path and parameters. */
async function sent(token: string) {
  const requests = (await upstreamRequestsWith('social', token)).filter((request) => !request.path.endsWith('/campaigns'));
  return requests.map((request) => {
    const body = request.body ? (JSON.parse(request.body) as Record<string, unknown>) : {};
    const { access_token: _token, appsecret_proof: _proof, ...params } = { ...request.query, ...body };
    return { method: request.method, path: request.path, params };
  });
}

describe('social update_campaign_status', () => {
  it('pauses: one read of the campaign and its account, one POST status=PAUSED; history and audit record it', async () => {
    const { userId, token } = await userWith(USD_ACCOUNT);
    const campaignId = await campaignIn(USD_ACCOUNT, token, { daily_budget: '5000' });
    const before = (await sent(token)).length;
    const response = await status(userId, campaignId, 'PAUSED');
    expect(response.body.results).toEqual({ success: true, campaignId, status: 'PAUSED', previousStatus: 'ACTIVE', platformStatus: 'PAUSED', changed: true });
    const calls = (await sent(token)).slice(before);
    expect(calls.map((request) => `${request.method} ${request.path}`)).toEqual([
      `GET /v26.0/${campaignId}`,
      `GET /v26.0/act_${USD_ACCOUNT}`,
      `POST /v26.0/${campaignId}`,
    ]);
    expect(calls[0]?.params.fields).toContain('daily_budget');
    expect(calls[2]?.params).toEqual({ status: 'PAUSED' });

    const history = await call('/optimize_me/get_campaign_optimization_history', { userId, campaignId }, { apiKey });
    expect(history.body.results.campaign).toMatchObject({ campaignId, platform: 'social', optimizationStatus: 'PAUSED' });
    expect(history.body.results.campaign.history).toEqual([
      expect.objectContaining({ change: { field: 'status', from: 'ACTIVE', to: 'PAUSED' }, source: { type: 'api' }, adId: '', adSetId: '' }),
    ]);
    const audit = await call('/tenant/list_audit_events', { userId, action: 'campaign.status_changed' }, { apiKey });
    expect(audit.body.results.events).toMatchObject([
      { target: { type: 'campaign', id: campaignId }, platform: 'social', changes: { status: { from: 'ACTIVE', to: 'PAUSED' } }, outcome: 'succeeded' },
    ]);
  });

  it('a campaign already as asked changes nothing upstream and records nothing: changed false', async () => {
    const { userId, token } = await userWith(USD_ACCOUNT);
    const campaignId = await campaignIn(USD_ACCOUNT, token, { daily_budget: '5000', status: 'PAUSED' });
    const before = (await sent(token)).length;
    const response = await status(userId, campaignId, 'PAUSED');
    expect(response.body.results).toMatchObject({ status: 'PAUSED', previousStatus: 'PAUSED', changed: false });
    expect((await sent(token)).slice(before).filter((request) => request.method !== 'GET')).toEqual([]);
    expect((await call('/optimize_me/get_campaign_optimization_history', { userId, campaignId }, { apiKey })).status).toBe(404);
  });

  it('resumes, deletes for good (DELETE upstream), then a delete again is changed false and a resume is CAMPAIGN_REMOVED with nothing written', async () => {
    const { userId, token } = await userWith(USD_ACCOUNT);
    const campaignId = await campaignIn(USD_ACCOUNT, token, { status: 'PAUSED' });
    expect((await status(userId, campaignId, 'ACTIVE')).body.results).toMatchObject({ status: 'ACTIVE', previousStatus: 'PAUSED', changed: true });
    const deleted = await status(userId, campaignId, 'DELETE');
    expect(deleted.body.results).toMatchObject({ status: 'REMOVED', previousStatus: 'ACTIVE', platformStatus: 'DELETED', changed: true });
    expect((await sent(token)).filter((request) => request.method === 'DELETE').map((request) => request.path)).toEqual([`/v26.0/${campaignId}`]);
    const before = (await sent(token)).length;
    expect((await status(userId, campaignId, 'DELETE')).body.results).toMatchObject({ status: 'REMOVED', previousStatus: 'REMOVED', changed: false });
    const refused = await status(userId, campaignId, 'ACTIVE');
    expect(refused.status).toBe(200);
    expect(refused.body.results).toMatchObject({ success: false, code: 'CAMPAIGN_REMOVED' });
    expect((await sent(token)).slice(before).filter((request) => request.method !== 'GET')).toEqual([]);
  });

  it('a campaign of another account, or none, is CAMPAIGN_NOT_FOUND before any write', async () => {
    const { userId, token } = await userWith(USD_ACCOUNT);
    const other = await newSocialUser(apiKey, { adAccountId: JPY_ACCOUNT });
    const elsewhere = await campaignIn(JPY_ACCOUNT, other.token, { daily_budget: '5000' });
    for (const campaignId of [elsewhere, '120210999999999999']) {
      const response = await status(userId, campaignId, 'PAUSED');
      expect(response.body.results).toMatchObject({ success: false, code: 'CAMPAIGN_NOT_FOUND' });
    }
    expect((await sent(token)).filter((request) => request.method !== 'GET')).toEqual([]);
  });

  it('validateOnly: the platform’s dry run (execution_options), nothing changes, nothing recorded', async () => {
    const { userId, token } = await userWith(USD_ACCOUNT);
    const campaignId = await campaignIn(USD_ACCOUNT, token, { daily_budget: '5000' });
    const response = await status(userId, campaignId, 'PAUSED', { validateOnly: true });
    expect(response.body.results).toMatchObject({ status: 'PAUSED', previousStatus: 'ACTIVE', changed: true, validateOnly: true });
    const writes = (await sent(token)).filter((request) => request.method === 'POST');
    expect(writes.map((request) => request.params)).toEqual([{ status: 'PAUSED', execution_options: ['validate_only'] }]);
    expect((await status(userId, campaignId, 'PAUSED')).body.results).toMatchObject({ previousStatus: 'ACTIVE', changed: true });
  });

  it('a replayed Idempotency-Key writes once', async () => {
    const { userId, token } = await userWith(USD_ACCOUNT);
    const campaignId = await campaignIn(USD_ACCOUNT, token, { daily_budget: '5000' });
    const headers = { 'idempotency-key': randomUUID() };
    const first = await status(userId, campaignId, 'PAUSED', {}, headers);
    const replay = await status(userId, campaignId, 'PAUSED', {}, headers);
    expect(replay.body).toEqual(first.body);
    expect((await sent(token)).filter((request) => request.method === 'POST')).toHaveLength(1);
  });

  it('checks the request before any call: an unknown status, a non-numeric id', async () => {
    const { userId, token } = await userWith(USD_ACCOUNT);
    const response = await status(userId, 'abc', 'STOPPED');
    expect(response.status).toBe(400);
    expect(response.body.results.details.map((detail: { path: string }) => detail.path).sort()).toEqual(['campaignId', 'status']);
    expect(await sent(token)).toEqual([]);
  });
});

describe('social edit_campaign', () => {
  it('USD: 75.5 is daily_budget 7550, the answer and the history in major units', async () => {
    const { userId, token } = await userWith(USD_ACCOUNT);
    const campaignId = await campaignIn(USD_ACCOUNT, token, { daily_budget: '5000' });
    const response = await budget(userId, campaignId, 75.5);
    expect(response.body.results).toEqual({
      success: true,
      campaignId,
      dailyBudget: { amount: '75.50', currency: 'USD' },
      previousDailyBudget: { amount: '50.00', currency: 'USD' },
      changed: true,
    });
    expect((await sent(token)).filter((request) => request.method === 'POST').map((request) => request.params)).toEqual([{ daily_budget: '7550' }]);
    const history = await call('/optimize_me/get_campaign_optimization_history', { userId, campaignId }, { apiKey });
    expect(history.body.results.campaign.history.at(-1).change).toEqual({
      field: 'dailyBudget',
      from: { amount: '50.00', currency: 'USD' },
      to: { amount: '75.50', currency: 'USD' },
    });
  });

  it('JPY has no minor unit: 7500 is "7500", and 75.5 is 400 with nothing written', async () => {
    const { userId, token } = await userWith(JPY_ACCOUNT);
    const campaignId = await campaignIn(JPY_ACCOUNT, token, { daily_budget: '5000' });
    expect((await budget(userId, campaignId, '7500')).body.results).toMatchObject({
      dailyBudget: { amount: '7500', currency: 'JPY' },
      previousDailyBudget: { amount: '5000', currency: 'JPY' },
    });
    const refused = await budget(userId, campaignId, '75.5');
    expect(refused.status).toBe(400);
    expect(refused.body.results.details).toEqual([{ path: 'amount', message: 'has more decimals than JPY allows (0)' }]);
    expect((await sent(token)).filter((request) => request.method === 'POST').map((request) => request.params)).toEqual([{ daily_budget: '7500' }]);
  });

  it('a three-decimal currency counts in hundredths here: 75.125 KWD is 400, 75.12 is 7512', async () => {
    const { userId, token } = await userWith(KWD_ACCOUNT);
    const campaignId = await campaignIn(KWD_ACCOUNT, token, { daily_budget: '5000' });
    expect((await budget(userId, campaignId, '75.125')).status).toBe(400);
    expect((await budget(userId, campaignId, '75.12')).body.results.dailyBudget).toEqual({ amount: '75.12', currency: 'KWD' });
    expect((await sent(token)).filter((request) => request.method === 'POST').map((request) => request.params)).toEqual([{ daily_budget: '7512' }]);
  });

  it('budgets on the ad sets, or a lifetime budget: BUDGET_NOT_ON_CAMPAIGN, nothing written', async () => {
    const { userId, token } = await userWith(USD_ACCOUNT);
    const adSets = await campaignIn(USD_ACCOUNT, token);
    const lifetime = await campaignIn(USD_ACCOUNT, token, { lifetime_budget: '100000' });
    expect((await budget(userId, adSets, 75)).body.results).toMatchObject({
      success: false,
      code: 'BUDGET_NOT_ON_CAMPAIGN',
      budgetIs: 'its budgets are set on its ad sets',
    });
    expect((await budget(userId, lifetime, 75)).body.results).toMatchObject({
      success: false,
      code: 'BUDGET_NOT_ON_CAMPAIGN',
      budgetIs: 'it has a lifetime budget',
    });
    expect((await sent(token)).filter((request) => request.method === 'POST')).toEqual([]);
  });

  it('below the platform’s minimum: BUDGET_TOO_LOW with the minimum, audited as failed', async () => {
    const { userId, token } = await userWith(USD_ACCOUNT);
    const campaignId = await campaignIn(USD_ACCOUNT, token, { daily_budget: '5000' });
    const response = await budget(userId, campaignId, '0.50');
    expect(response.body.results).toMatchObject({ success: false, code: 'BUDGET_TOO_LOW', minimum: { amount: '1.00', currency: 'USD' } });
    const audit = await call('/tenant/list_audit_events', { userId, action: 'campaign.budget_changed' }, { apiKey });
    expect(audit.body.results.events).toMatchObject([{ outcome: 'failed', error: { code: 'BUDGET_TOO_LOW' }, target: { id: campaignId } }]);
  });

  it('4 budget changes an hour: the 5th is 429 with Retry-After before any call, a refused change does not count', async () => {
    const { userId, token } = await userWith(USD_ACCOUNT);
    const campaignId = await campaignIn(USD_ACCOUNT, token, { daily_budget: '5000' });
    // scoped to this campaign and to the one write it refuses: a fault left queued would refuse another test's write
    await injectFault('social', {
      requestIncludes: '"daily_budget":"6100"',
      pathIncludes: campaignId,
      status: 500,
      body: { error: { message: 'boom', code: 1 } },
    });
    expect((await budget(userId, campaignId, '61')).status).toBe(502);
    for (const amount of ['51', '52', '53', '54']) expect((await budget(userId, campaignId, amount)).body.results.changed).toBe(true);
    const posts = (await sent(token)).filter((request) => request.method === 'POST').length;
    const limited = await budget(userId, campaignId, '55');
    expect(limited.status).toBe(429);
    expect(limited.body.results.code).toBe('PLATFORM_RATE_LIMITED');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(3500);
    expect((await sent(token)).filter((request) => request.method === 'POST')).toHaveLength(posts);
  });

  it('validateOnly: the dry run goes to the platform and changes nothing, and does not count toward the limit', async () => {
    const { userId, token } = await userWith(USD_ACCOUNT);
    const campaignId = await campaignIn(USD_ACCOUNT, token, { daily_budget: '5000' });
    const response = await budget(userId, campaignId, '80', { validateOnly: true });
    expect(response.body.results).toMatchObject({
      dailyBudget: { amount: '80.00' },
      previousDailyBudget: { amount: '50.00' },
      changed: true,
      validateOnly: true,
    });
    expect((await sent(token)).filter((request) => request.method === 'POST').map((request) => request.params)).toEqual([
      { daily_budget: '8000', execution_options: ['validate_only'] },
    ]);
    expect((await budget(userId, campaignId, '80')).body.results.previousDailyBudget).toEqual({ amount: '50.00', currency: 'USD' });
  });

  it('the same amount changes nothing', async () => {
    const { userId, token } = await userWith(USD_ACCOUNT);
    const campaignId = await campaignIn(USD_ACCOUNT, token, { daily_budget: '5000' });
    expect((await budget(userId, campaignId, '50.00')).body.results).toMatchObject({ changed: false });
    expect((await sent(token)).filter((request) => request.method === 'POST')).toEqual([]);
  });

  it('another tenant’s user is not found, as an unknown one', async () => {
    const { userId, token } = await userWith(USD_ACCOUNT);
    const campaignId = await campaignIn(USD_ACCOUNT, token, { daily_budget: '5000' });
    const otherKey = await newTenant();
    const response = await call('/social/edit_campaign', { userId, campaignId, editLevel: 'BUDGET', amount: 60 }, { apiKey: otherKey });
    expect(response.status).toBe(404);
    expect((await sent(token)).filter((request) => request.method === 'POST')).toEqual([]);
  });
});
