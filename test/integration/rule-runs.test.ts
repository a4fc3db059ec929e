import { randomBytes, randomInt } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { clock } from '../../shared/core/clock.ts';
import { spendRulesQuota } from '../../shared/store/rule-writes.ts';
import { call, newTenant, newUser, stack } from '../helpers/api.ts';
import { createRule, runGroup, runMessage, runsOf, socialAccountUser, tenantOf, trippingRule } from '../helpers/rules.ts';
import { stackNow, upstreamRequests, upstreamRequestsWith } from '../helpers/sandbox.ts';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { googleDay } from '../../shared/core/google-day.ts';
import { documentStore, mainTableName } from '../../shared/store/client.ts';
import { keys } from '../../shared/store/keys.ts';
import { tenantShare } from '../../shared/store/searchads-operations.ts';
import { seedCampaigns } from '../helpers/scale.ts';

/**
 * Rule runs against the sandboxes, made in this process exactly as the queue's worker makes them:
 * each action on each platform with its exact upstream write, each guardrail, the quota share, and a
 * rule whose actions keep failing disabled and announced.
 */
let apiKey = '';
beforeAll(async () => {
  apiKey = await newTenant();
  await call('/tenant/update_settings', { webhook: { url: `${stack().webhookReceiverUrl}/webhooks` } }, { apiKey });
});

const socialWrites = async (token: string) =>
  (await upstreamRequestsWith('social', token))
    .filter((request) => request.method !== 'GET')
    .map((request) => ({ path: request.path, body: JSON.parse(request.body) }));

/** Runs the rules once, as the scheduler would queue them now; answers each rule's run. */
async function runOnce(userId: string, ruleIds: string[]) {
  return runGroup(await runMessage(apiKey, userId, ruleIds));
}

const budgetRule = (userId: string, platform: string, campaignIds: string[], action: Record<string, unknown>, overrides: Record<string, unknown> = {}) =>
  trippingRule(userId, platform as 'social', campaignIds, { action, ...overrides });

describe('a rule’s actions on each platform', () => {
  it('social: a budget raised 20% within its bounds, in the minor unit, with one read and one write', async () => {
    const { userId, token, campaignIds } = await socialAccountUser(apiKey, 1);
    const rule = await createRule(
      apiKey,
      budgetRule(userId, 'social', campaignIds, { type: 'CHANGE_DAILY_BUDGET', percent: 20, minDailyBudget: '10', maxDailyBudget: '55' }),
    );
    const [run] = await runOnce(userId, [rule.ruleId]);
    expect(run?.actions).toEqual([{ campaignId: campaignIds[0], type: 'CHANGE_DAILY_BUDGET', from: '50.00', to: '55.00', outcome: 'applied' }]);
    // 50.00 raised 20% is 60.00, held at the maximum of 55.00
    expect(await socialWrites(token)).toEqual([{ path: `/v26.0/${campaignIds[0]}`, body: expect.objectContaining({ daily_budget: '5500' }) }]);
    const history = await call('/optimize_me/get_campaign_optimization_history', { userId, campaignId: campaignIds[0] }, { apiKey });
    expect(history.body.results.campaign.history.at(-1)).toMatchObject({
      change: { field: 'dailyBudget', from: { amount: '50.00', currency: 'USD' }, to: { amount: '55.00', currency: 'USD' } },
      source: { type: 'rule', ruleId: rule.ruleId },
    });
  });

  it('search ads: a pause is one campaigns:mutate update of status; a set budget one campaignBudgets:mutate in micros', async () => {
    const customerId = String(randomInt(1_000_000_000, 6_999_999_999));
    const [pauseId, budgetId] = (await seedCampaigns('searchads', customerId, 2)) as [string, string];
    const userId = await newUser(apiKey, { searchads: { refreshToken: `1//rules-${randomBytes(6).toString('hex')}`, customerId } });
    const pause = await createRule(apiKey, trippingRule(userId, 'searchads', [pauseId]));
    const set = await createRule(
      apiKey,
      budgetRule(userId, 'searchads', [budgetId], { type: 'SET_DAILY_BUDGET', amount: '32.50', minDailyBudget: '5', maxDailyBudget: '40' }),
    );
    const runs = await runOnce(userId, [pause.ruleId, set.ruleId]);
    expect(runs.map((run) => run.actions[0]?.outcome)).toEqual(['applied', 'applied']);
    const writes = (await upstreamRequests('searchads'))
      .filter((request) => request.path.includes(`/customers/${customerId}/`) && request.path.endsWith(':mutate'))
      .map((request) => ({ path: request.path.split('/').pop(), body: JSON.parse(request.body) }));
    expect(writes).toEqual([
      {
        path: 'campaigns:mutate',
        body: { operations: [{ updateMask: 'status', update: { resourceName: `customers/${customerId}/campaigns/${pauseId}`, status: 'PAUSED' } }] },
      },
      {
        path: 'campaignBudgets:mutate',
        body: {
          operations: [{ updateMask: 'amountMicros', update: { resourceName: expect.stringMatching(/campaignBudgets\/\d+$/), amountMicros: '32500000' } }],
        },
      },
    ]);
    // the metrics: one searchStream for the group's one window, however many rules
    const streams = (await upstreamRequests('searchads')).filter((request) => request.path.endsWith(`/customers/${customerId}/googleAds:searchStream`));
    expect(streams).toHaveLength(1);
  });

  it('professional: a pause is one Rest.li PARTIAL_UPDATE of status', async () => {
    const account = String(randomInt(610_000_000, 699_999_999));
    const token = `AQVrules${randomBytes(8).toString('hex')}`;
    const [campaignId] = (await seedCampaigns('professional', account, 1)) as [string];
    const userId = await newUser(apiKey, { professional: { accessToken: token, adAccountId: account } });
    const rule = await createRule(apiKey, trippingRule(userId, 'professional', [campaignId]));
    const [run] = await runOnce(userId, [rule.ruleId]);
    expect(run?.actions).toEqual([{ campaignId, type: 'PAUSE', from: 'ACTIVE', to: 'PAUSED', outcome: 'applied' }]);
    const writes = (await upstreamRequestsWith('professional', token)).filter((request) => request.method !== 'GET');
    expect(writes.map((request) => ({ path: request.path, method: request.headers['x-restli-method'], body: JSON.parse(request.body) }))).toEqual([
      { path: `/rest/adAccounts/${account}/adCampaigns/${campaignId}`, method: 'PARTIAL_UPDATE', body: { patch: { $set: { status: 'PAUSED' } } } },
    ]);
  });
  it('professional: an activation is one PARTIAL_UPDATE of status ACTIVE (a campaign paused before any history)', async () => {
    const account = String(randomInt(610_000_000, 699_999_999));
    const token = `AQVrules${randomBytes(8).toString('hex')}`;
    const userId = await newUser(apiKey, { professional: { accessToken: token, adAccountId: account } });
    // every account's seeded campaign 600000102 is paused
    const rule = await createRule(apiKey, trippingRule(userId, 'professional', ['600000102'], { action: { type: 'ACTIVATE' } }));
    const [run] = await runOnce(userId, [rule.ruleId]);
    expect(run?.actions).toEqual([{ campaignId: '600000102', type: 'ACTIVATE', from: 'PAUSED', to: 'ACTIVE', outcome: 'applied' }]);
    const writes = (await upstreamRequestsWith('professional', token)).filter((request) => request.method !== 'GET');
    expect(writes.map((request) => JSON.parse(request.body))).toEqual([{ patch: { $set: { status: 'ACTIVE' } } }]);
  });
});

describe('guardrails', () => {
  it('cooldown: a rule leaves a campaign it changed alone until its cooldown is over', async () => {
    const { userId, token, campaignIds } = await socialAccountUser(apiKey, 1);
    const rule = await createRule(
      apiKey,
      budgetRule(
        userId,
        'social',
        campaignIds,
        { type: 'CHANGE_DAILY_BUDGET', percent: 10, minDailyBudget: '10', maxDailyBudget: '500' },
        { cooldownHours: 24 },
      ),
    );
    await runOnce(userId, [rule.ruleId]);
    const [second] = await runOnce(userId, [rule.ruleId]); // its next (hourly) run
    expect(second?.actions[0]).toMatchObject({ outcome: 'skipped', reason: expect.stringMatching(/^cooldown: this rule changed the campaign at/) });
    expect(await socialWrites(token)).toHaveLength(1);
  });

  it('at most 3 rule actions on a campaign a day, across rules', async () => {
    const { userId, token, campaignIds } = await socialAccountUser(apiKey, 1);
    const rules = [];
    for (let index = 0; index < 4; index++)
      rules.push(
        await createRule(
          apiKey,
          budgetRule(userId, 'social', campaignIds, { type: 'CHANGE_DAILY_BUDGET', percent: 5, minDailyBudget: '1', maxDailyBudget: '900' }),
        ),
      );
    const runs = await runOnce(
      userId,
      rules.map((rule) => rule.ruleId),
    );
    expect(runs.map((run) => run.actions[0]?.outcome)).toEqual(['applied', 'applied', 'applied', 'skipped']);
    expect(runs[3]?.actions[0]?.reason).toBe('daily cap: rules already changed this campaign 3 times today');
    expect(await socialWrites(token)).toHaveLength(3);
  });

  it('no reversal of a change someone else made within the cooldown', async () => {
    const { userId, token, campaignIds } = await socialAccountUser(apiKey, 1);
    await call('/social/edit_campaign', { userId, campaignId: campaignIds[0], editLevel: 'BUDGET', amount: '70' }, { apiKey });
    const before = (await socialWrites(token)).length;
    const lower = await createRule(
      apiKey,
      budgetRule(userId, 'social', campaignIds, { type: 'CHANGE_DAILY_BUDGET', percent: -20, minDailyBudget: '10', maxDailyBudget: '100' }),
    );
    const raise = await createRule(
      apiKey,
      budgetRule(userId, 'social', campaignIds, { type: 'CHANGE_DAILY_BUDGET', percent: 10, minDailyBudget: '10', maxDailyBudget: '100' }),
    );
    const runs = await runOnce(userId, [lower.ruleId, raise.ruleId]);
    expect(runs[0]?.actions[0]).toMatchObject({
      outcome: 'skipped',
      from: '70.00',
      to: '56.00',
      reason: expect.stringMatching(/^reversal: an API call changed dailyBudget/),
    });
    // the same way as the person's change is no reversal
    expect(runs[1]?.actions[0]).toMatchObject({ outcome: 'applied', from: '70.00', to: '77.00' });
    expect((await socialWrites(token)).length).toBe(before + 1);
  });

  it('nothing acts on a removed campaign', async () => {
    const customerId = String(randomInt(1_000_000_000, 6_999_999_999));
    const [campaignId] = (await seedCampaigns('searchads', customerId, 1)) as [string];
    const userId = await newUser(apiKey, { searchads: { refreshToken: `1//rules-${randomBytes(6).toString('hex')}`, customerId } });
    await call('/searchads/update_campaign_status', { userId, campaignId, status: 'DELETE' }, { apiKey });
    const rule = await createRule(apiKey, trippingRule(userId, 'searchads', [campaignId]));
    const [run] = await runOnce(userId, [rule.ruleId]);
    expect(run?.actions[0]).toMatchObject({ outcome: 'skipped', reason: 'the campaign is removed (removed); nothing acts on it' });
    const mutates = (await upstreamRequests('searchads')).filter(
      (request) => request.path.includes(`/customers/${customerId}/`) && request.path.endsWith(':mutate'),
    );
    expect(mutates).toHaveLength(1); // the API's own DELETE, nothing after
  });
});

describe('a run’s limits', () => {
  it('a tenant past its share of the search-ads project’s day: its accounts are skipped (partial, saying why), nothing is sent', async () => {
    const quotaKey = await newTenant();
    const customerId = String(randomInt(1_000_000_000, 6_999_999_999));
    const [campaignId] = (await seedCampaigns('searchads', customerId, 1)) as [string];
    const userId = await newUser(quotaKey, { searchads: { refreshToken: `1//share-${randomBytes(6).toString('hex')}`, customerId } });
    const rule = await createRule(quotaKey, trippingRule(userId, 'searchads', [campaignId]));
    const message = await runMessage(quotaKey, userId, [rule.ruleId]);
    const now = await stackNow();
    await documentStore().send(
      new PutCommand({
        TableName: mainTableName(),
        Item: { ...keys.searchadsOperations(await tenantOf(quotaKey), googleDay(now)), operations: tenantShare() },
      }),
    );
    const ofAccount = async () => (await upstreamRequests('searchads')).filter((request) => request.path.includes(`/customers/${customerId}/`)).length;
    const before = await ofAccount();
    const [partial] = await runGroup(message);
    expect(partial).toMatchObject({ status: 'partial', actions: [], reason: expect.stringContaining('share') });
    expect(partial?.reason).toContain("Google's next day");
    expect(await ofAccount()).toBe(before);
  });

  it('stops, partial, before the tenant’s share of the platform’s daily calls is passed, and goes on later as the same run', async () => {
    const quotaKey = await newTenant();
    const { userId, token, campaignIds } = await socialAccountUser(quotaKey, 1);
    const rule = await createRule(quotaKey, trippingRule(userId, 'social', campaignIds));
    const madeByCreate = (await upstreamRequestsWith('social', token)).length; // create_rule's read of the account's campaigns
    const message = await runMessage(quotaKey, userId, [rule.ruleId]);
    // the share (0.2 of 10,000 calls) already spent today
    await spendRulesQuota(await tenantOf(quotaKey), 'social', clock.today(), 2000, 2000);
    const [partial] = await runGroup(message);
    expect(partial).toMatchObject({ status: 'partial', actions: [], reason: expect.stringContaining('share of the platform') });
    expect((await upstreamRequestsWith('social', token)).slice(madeByCreate)).toEqual([]);
    const [stored] = (await call('/optimize_me/list_rules', { userId }, { apiKey: quotaKey })).body.results.rules;
    expect(stored.nextRunAt).toBe(rule.nextRunAt); // still due
    expect(await runsOf(quotaKey, userId, rule.ruleId)).toHaveLength(1);
  });

  it('a rule whose actions fail in 3 runs in a row is disabled, audited and announced', async () => {
    const customerId = String(randomInt(1_000_000_000, 6_999_999_999));
    const userId = await newUser(apiKey, { searchads: { refreshToken: `1//rules-${randomBytes(6).toString('hex')}`, customerId } });
    // the seeded "Launch week" campaign has a total (custom-period) budget: no daily budget to set
    const rule = await createRule(
      apiKey,
      budgetRule(userId, 'searchads', ['21234567894'], { type: 'SET_DAILY_BUDGET', amount: '20', minDailyBudget: '5', maxDailyBudget: '40' }),
    );
    for (let run = 1; run <= 3; run++) {
      const [result] = await runOnce(userId, [rule.ruleId]);
      expect(result?.actions[0]).toMatchObject({ outcome: 'failed', error: { code: 'BUDGET_NOT_ON_CAMPAIGN' } });
    }
    const [stored] = (await call('/optimize_me/list_rules', { userId }, { apiKey })).body.results.rules;
    expect(stored).toMatchObject({ enabled: false, consecutiveFailedRuns: 3, disabledReason: expect.stringContaining('3 runs in a row') });
    expect(stored.nextRunAt).toBeUndefined();
    const audit = await call('/tenant/list_audit_events', { userId, action: 'rule.disabled' }, { apiKey });
    expect(audit.body.results.events).toEqual([
      expect.objectContaining({
        actor: { type: 'rule', id: rule.ruleId },
        target: { type: 'rule', id: rule.ruleId },
        changes: { enabled: { from: true, to: false } },
      }),
    ]);
    const webhooks = (await call('/tenant/list_webhook_events', {}, { apiKey })).body.results.events as Array<{ type: string }>;
    expect(webhooks.some((event) => event.type === 'optimization.rule_disabled')).toBe(true);
    // a disabled rule is no longer run
    expect(await runOnce(userId, [rule.ruleId])).toEqual([]);
  });
});
