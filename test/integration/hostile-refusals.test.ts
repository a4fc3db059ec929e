import { randomBytes, randomInt } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, newTenant, newUser } from '../helpers/api.ts';
import { createRule, socialAccountUser, trippingRule } from '../helpers/rules.ts';
import { injectFault, upstreamRequestsWith } from '../helpers/sandbox.ts';

/**
 * What a hostile client sent, refused clearly with nothing stored or sent: numbers the store cannot
 * hold, budgets past any currency's ceiling, another account's campaign, unknown keys, redirect URIs
 * without an authority; and what a platform echoes of a secret never reaches the client.
 */
let apiKey = '';
beforeAll(async () => {
  apiKey = await newTenant();
});

async function professionalUser() {
  const token = `AQVhostile${randomBytes(8).toString('hex')}`;
  const account = String(randomInt(510_000_000, 599_999_999));
  const userId = await newUser(apiKey, { professional: { accessToken: token, adAccountId: account } });
  return { userId, token, account };
}

const rules = async (userId: string) => (await call('/optimize_me/list_rules', { userId }, { apiKey })).body.results.rules as unknown[];

describe('rule numbers and budgets past what can be held', () => {
  it('condition values and percents outside the bounds are 400 with details, nothing stored', async () => {
    const { userId, campaignIds } = await socialAccountUser(apiKey, 1);
    const condition = (value: number) => [{ metric: 'spend', operator: '>', value, window: 'LAST_7_DAYS' }];
    for (const value of [1e21, 2 ** 53, 1e308, 5e-324, 1e12 + 1, 0.0000001]) {
      const response = await call('/optimize_me/create_rule', trippingRule(userId, 'social', campaignIds, { conditions: condition(value) }), { apiKey });
      expect(response.status, String(value)).toBe(400);
      expect(response.body.results.details).toEqual([expect.objectContaining({ path: 'conditions.0.value' })]);
    }
    for (const percent of [1e-300, 10.001, 1001, -91]) {
      const action = { type: 'CHANGE_DAILY_BUDGET', percent, minDailyBudget: '1', maxDailyBudget: '100' };
      const response = await call('/optimize_me/create_rule', trippingRule(userId, 'social', campaignIds, { action }), { apiKey });
      expect(response.status, String(percent)).toBe(400);
      expect(response.body.results.details).toEqual([expect.objectContaining({ path: 'action.percent' })]);
    }
    const edge = await call('/optimize_me/create_rule', trippingRule(userId, 'social', campaignIds, { conditions: condition(1e12) }), { apiKey });
    expect(edge.status).toBe(200);
    expect(await rules(userId)).toHaveLength(1);
  });

  it('a daily budget past 1,000,000,000 minor units is 400 before any write', async () => {
    const { userId, token, campaignIds } = await socialAccountUser(apiKey, 1);
    const campaignId = campaignIds[0] as string;
    for (const amount of ['10000000.01', '1000000001']) {
      const response = await call('/social/edit_campaign', { userId, campaignId, editLevel: 'BUDGET', amount }, { apiKey });
      expect(response.status, amount).toBe(400);
      expect(response.body.results).toMatchObject({ code: 'INVALID_REQUEST', details: [expect.objectContaining({ path: 'amount' })] });
    }
    expect((await upstreamRequestsWith('social', token)).filter((request) => request.method !== 'GET')).toEqual([]);
  });
});

describe('ownership', () => {
  it('professional analytics of a campaign not in the user’s account is CAMPAIGN_NOT_FOUND, with no analytics read', async () => {
    const { userId, token } = await professionalUser();
    const response = await call(
      '/professional/get_campaign_analytics',
      { userId, campaignId: '699999999', startDate: '2020-01-01', endDate: '2020-01-07' },
      { apiKey },
    );
    expect(response.status).toBe(200);
    expect(response.body.results).toMatchObject({ success: false, code: 'CAMPAIGN_NOT_FOUND' });
    expect((await upstreamRequestsWith('professional', token)).map((request) => request.path)).not.toContain('/rest/adAnalytics');
  });

  it('a rule naming campaigns not in the account is CAMPAIGN_NOT_FOUND naming them, nothing stored; update the same', async () => {
    const { userId, campaignIds } = await socialAccountUser(apiKey, 1);
    const refused = await call('/optimize_me/create_rule', trippingRule(userId, 'social', [...campaignIds, '120219999999999999']), { apiKey });
    expect(refused.status).toBe(200);
    expect(refused.body.results).toMatchObject({ success: false, code: 'CAMPAIGN_NOT_FOUND', campaignIds: ['120219999999999999'] });
    expect(await rules(userId)).toEqual([]);
    const rule = await createRule(apiKey, trippingRule(userId, 'social', campaignIds));
    const update = await call('/optimize_me/update_rule', { userId, ruleId: rule.ruleId, campaignIds: ['120219999999999998'] }, { apiKey });
    expect(update.body.results).toMatchObject({ success: false, code: 'CAMPAIGN_NOT_FOUND', campaignIds: ['120219999999999998'] });
    expect(await rules(userId)).toEqual([expect.objectContaining({ campaignIds })]);
  });

  it('list_rule_runs of an unknown rule, or another tenant’s, is 404', async () => {
    const { userId, campaignIds } = await socialAccountUser(apiKey, 1);
    const rule = await createRule(apiKey, trippingRule(userId, 'social', campaignIds));
    expect((await call('/optimize_me/list_rule_runs', { userId, ruleId: rule.ruleId }, { apiKey })).status).toBe(200);
    const unknown = await call('/optimize_me/list_rule_runs', { userId, ruleId: `rul_${'0'.repeat(24)}` }, { apiKey });
    expect(unknown.status).toBe(404);
    expect(unknown.body.results.code).toBe('NOT_FOUND');
    expect((await call('/optimize_me/list_rule_runs', { userId, ruleId: rule.ruleId }, { apiKey: await newTenant() })).status).toBe(404);
  });
});

describe('repeated deletes', () => {
  it('a deleted professional draft deleted again answers changed false, also when repeats race', async () => {
    const { userId } = await professionalUser();
    const first = await call('/professional/update_campaign_status', { userId, campaignId: '600000103', status: 'DELETE' }, { apiKey });
    expect(first.body.results).toMatchObject({ changed: true, status: 'REMOVED' });
    const repeats = await Promise.all(
      [1, 2, 3].map(() => call('/professional/update_campaign_status', { userId, campaignId: '600000103', status: 'DELETE' }, { apiKey })),
    );
    for (const repeat of repeats) expect(repeat.body.results).toMatchObject({ success: true, changed: false, status: 'REMOVED' });
  });
});

describe('unknown keys and malformed redirect URIs', () => {
  it('refuses unknown keys at the top and inside connections, naming them', async () => {
    const { userId } = await professionalUser();
    const cases: Array<[string, Record<string, unknown>]> = [
      ['/users/get_profile', { userId, extra: 1 }],
      ['/users/create_user', { connections: { social: { accessToken: 'EAAtoken-0123456789', adAccountId: '1', admin: true } } }],
      [
        '/optimize_me/record_campaign_optimization',
        {
          userId,
          campaignId: 'c1',
          campaignName: 'C',
          platform: 'social',
          optimizationStatus: 'ACTIVE',
          startDate: 0,
          entry: { adId: 'a', adSetId: 's', timestamp: 0 },
          owner: 'someone',
        },
      ],
    ];
    for (const [path, body] of cases) {
      const response = await call(path, body, { apiKey });
      expect(response.status, path).toBe(400);
      expect(response.body.results.code).toBe('INVALID_REQUEST');
    }
    expect((await call('/optimize_me/get_campaign_optimization_history', { userId, campaignId: 'c1' }, { apiKey })).status).toBe(404);
  });

  it('a redirect URI must be an absolute URL with an authority', async () => {
    const key = await newTenant();
    for (const uri of ['https:app.example.com/x', 'https:/app.example.com/x', 'https:///x']) {
      const response = await call('/tenant/update_settings', { redirectUris: [uri] }, { apiKey: key });
      expect(response.status, uri).toBe(400);
    }
    expect((await call('/tenant/get_settings', {}, { apiKey: key })).body.results.settings.redirectUris).toEqual([]);
  });
});

describe('a platform that echoes a secret', () => {
  it('professional and search-ads refusals never carry the session’s token', async () => {
    const { userId, token } = await professionalUser();
    await injectFault('professional', {
      requestIncludes: token,
      status: 400,
      body: { status: 400, code: 'INVALID_INPUT', message: `Token ${token} is not valid for this request` },
    });
    const professional = await call('/professional/update_campaign_status', { userId, campaignId: '600000101', status: 'PAUSED' }, { apiKey });
    expect(professional.text).not.toContain(token);
    expect(professional.body.results.success).toBe(false);

    const refreshToken = `1//hostile-${randomBytes(8).toString('hex')}`;
    const customerId = String(randomInt(1_000_000_000, 6_999_999_999));
    const searchUser = await newUser(apiKey, { searchads: { refreshToken, customerId } });
    await injectFault('searchads', {
      pathIncludes: customerId,
      status: 400,
      body: {
        error: {
          code: 400,
          status: 'INVALID_ARGUMENT',
          message: 'Request contains an invalid argument.',
          details: [
            {
              '@type': 'type.googleapis.com/google.ads.googleads.v21.errors.GoogleAdsFailure',
              errors: [{ errorCode: { requestError: 'INVALID_INPUT' }, message: `grant ${refreshToken} does not match` }],
              requestId: 'req-1',
            },
          ],
        },
      },
    });
    const search = await call('/searchads/update_campaign_status', { userId: searchUser, campaignId: '1234567', status: 'PAUSED' }, { apiKey });
    expect(search.text).not.toContain(refreshToken);
    expect(search.text).toContain('[redacted]');
  });
});
