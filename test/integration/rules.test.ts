import { beforeAll, describe, expect, it } from 'vitest';
import { call, newTenant, stack } from '../helpers/api.ts';
import { createRule, runGroup, runMessage, runsOf, socialAccountUser, trippingRule } from '../helpers/rules.ts';
import { upstreamRequestsWith } from '../helpers/sandbox.ts';
import { eventually } from '../helpers/eventually.ts';

/**
 * The rule operations through the gateway: validation before anything is stored, the rule's life
 * (create, list, update, delete) with its audit events, the limit of 100, a preview that acts on
 * nothing, and a run that acts through campaign control with the rule as actor.
 */
let apiKey = '';
beforeAll(async () => {
  apiKey = await newTenant();
  await call('/tenant/update_settings', { webhook: { url: `${stack().webhookReceiverUrl}/webhooks` } }, { apiKey });
});

const listRules = async (userId: string) => (await call('/optimize_me/list_rules', { userId }, { apiKey })).body.results.rules as Array<Record<string, any>>;
const writesOf = async (token: string) => (await upstreamRequestsWith('social', token)).filter((request) => request.method !== 'GET');

describe('rule operations', () => {
  it('refuses every malformed rule with a detail per problem, and stores nothing', async () => {
    const { userId, campaignIds } = await socialAccountUser(apiKey, 1);
    const base = trippingRule(userId, 'social', campaignIds);
    const cases: Array<[Record<string, unknown>, string[]]> = [
      [{ ...base, conditions: [{ metric: 'roas', operator: '>', value: 1, window: 'LAST_7_DAYS' }] }, ['conditions.0.metric']],
      [{ ...base, conditions: [{ metric: 'spend', operator: '=>', value: 1, window: 'LAST_2_DAYS' }] }, ['conditions.0.operator', 'conditions.0.window']],
      [{ ...base, conditions: [] }, ['conditions']],
      [{ ...base, campaignIds: [] }, ['campaignIds']],
      [{ ...base, campaignIds: Array.from({ length: 101 }, (_, index) => String(1000 + index)) }, ['campaignIds']],
      [{ ...base, campaignIds: ['1', '1'] }, ['campaignIds']],
      [{ ...base, action: { type: 'CHANGE_DAILY_BUDGET', percent: 20 } }, ['action.minDailyBudget', 'action.maxDailyBudget']],
      [{ ...base, action: { type: 'CHANGE_DAILY_BUDGET', percent: 20, minDailyBudget: '50', maxDailyBudget: '20' } }, ['action.minDailyBudget']],
      [{ ...base, action: { type: 'SET_DAILY_BUDGET', amount: '90', minDailyBudget: '10', maxDailyBudget: '50' } }, ['action.amount']],
      [{ ...base, action: { type: 'PAUSE', amount: '5' } }, ['action']],
      [{ ...base, platform: 'tiktok' }, ['platform']],
      [{ ...base, schedule: 'WEEKLY', cooldownHours: 0 }, ['schedule', 'cooldownHours']],
    ];
    for (const [body, paths] of cases) {
      const response = await call('/optimize_me/create_rule', body, { apiKey });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.results.code).toBe('INVALID_REQUEST');
      expect(response.body.results.details.map((detail: { path: string }) => detail.path).sort(), JSON.stringify(body)).toEqual([...paths].sort());
    }
    expect(await listRules(userId)).toEqual([]);
  });

  it('creates, lists, updates and deletes a rule, each write audited with the key as actor', async () => {
    const { userId, campaignIds } = await socialAccountUser(apiKey, 2);
    const created = await call('/optimize_me/create_rule', trippingRule(userId, 'social', campaignIds, { cooldownHours: 6 }), { apiKey });
    expect(created.status, created.text).toBe(200);
    const { rule } = created.body.results;
    expect(rule).toMatchObject({ userId, platform: 'social', campaignIds, cooldownHours: 6, enabled: true, consecutiveFailedRuns: 0 });
    expect(rule.ruleId).toMatch(/^rul_[0-9a-f]{24}$/);
    expect(rule.nextRunAt).toBe(rule.createdAt); // due at once
    expect(await listRules(userId)).toEqual([rule]);

    const platformChange = await call('/optimize_me/update_rule', { userId, ruleId: rule.ruleId, platform: 'searchads' }, { apiKey });
    expect(platformChange.status).toBe(400);
    expect(platformChange.body.results.details).toEqual([{ path: 'platform', message: expect.stringContaining('fixed') }]);

    const disabled = await call('/optimize_me/update_rule', { userId, ruleId: rule.ruleId, enabled: false, name: 'Paused for now' }, { apiKey });
    expect(disabled.body.results.rule).toMatchObject({ enabled: false, name: 'Paused for now' });
    expect(disabled.body.results.rule.nextRunAt).toBeUndefined();
    const enabled = await call('/optimize_me/update_rule', { userId, ruleId: rule.ruleId, enabled: true }, { apiKey });
    expect(enabled.body.results.rule.nextRunAt).toBe(enabled.body.results.rule.updatedAt);

    const deleted = await call('/optimize_me/delete_rule', { userId, ruleId: rule.ruleId }, { apiKey });
    expect(deleted.body.results).toMatchObject({ success: true, ruleId: rule.ruleId, deleted: true });
    expect(await listRules(userId)).toEqual([]);
    const again = await call('/optimize_me/delete_rule', { userId, ruleId: rule.ruleId }, { apiKey });
    expect(again.status).toBe(404);

    const audit = await call('/tenant/list_audit_events', { userId }, { apiKey });
    const ruleEvents = (audit.body.results.events as Array<Record<string, any>>).filter((event) => event.target.type === 'rule');
    expect(ruleEvents.map((event) => event.action)).toEqual(['rule.deleted', 'rule.updated', 'rule.updated', 'rule.created']);
    for (const event of ruleEvents) expect(event).toMatchObject({ actor: { type: 'api_key' }, target: { id: rule.ruleId }, outcome: 'succeeded' });
    expect(ruleEvents[2]?.changes).toEqual({ enabled: { to: false }, name: { to: 'Paused for now' } });
  });

  it('answers 409 RULE_LIMIT_REACHED for a user’s 101st rule', async () => {
    const { userId, campaignIds } = await socialAccountUser(apiKey, 1);
    for (let index = 0; index < 100; index++) await createRule(apiKey, trippingRule(userId, 'social', campaignIds, { enabled: false }));
    const over = await call('/optimize_me/create_rule', trippingRule(userId, 'social', campaignIds), { apiKey });
    expect(over.status).toBe(409);
    expect(over.body.results).toMatchObject({ code: 'RULE_LIMIT_REACHED', limit: 100 });
  }, 60_000);

  it('another tenant sees none of the rules and cannot touch them', async () => {
    const { userId, campaignIds } = await socialAccountUser(apiKey, 1);
    const rule = await createRule(apiKey, trippingRule(userId, 'social', campaignIds));
    const stranger = await newTenant();
    expect((await call('/optimize_me/list_rules', { userId }, { apiKey: stranger })).status).toBe(404);
    expect((await call('/optimize_me/delete_rule', { userId, ruleId: rule.ruleId }, { apiKey: stranger })).status).toBe(404);
    expect(await listRules(userId)).toHaveLength(1);
  });

  it('previews a rule: metrics, the match and what it would do, and nothing is written anywhere', async () => {
    const { userId, token, campaignIds } = await socialAccountUser(apiKey, 2);
    const rule = await createRule(apiKey, trippingRule(userId, 'social', campaignIds));
    const preview = await call('/optimize_me/preview_rule', { userId, ruleId: rule.ruleId }, { apiKey });
    expect(preview.status, preview.text).toBe(200);
    const { evaluations } = preview.body.results;
    expect(evaluations).toHaveLength(2);
    for (const evaluation of evaluations) {
      expect(evaluation).toMatchObject({ matched: true, action: { type: 'PAUSE', from: 'ACTIVE', to: 'PAUSED' } });
      expect(Number(evaluation.metrics['impressions.LAST_7_DAYS'])).toBeGreaterThan(0);
    }
    // a rule not created yet, the same way; both or neither is a clear 400
    const { userId: _user, ...definition } = trippingRule(userId, 'social', campaignIds);
    const inline = await call('/optimize_me/preview_rule', { userId, rule: definition }, { apiKey });
    expect(inline.body.results.evaluations).toEqual(evaluations);
    const both = await call('/optimize_me/preview_rule', { userId, ruleId: rule.ruleId, rule: definition }, { apiKey });
    expect(both.status).toBe(400);
    const neither = await call('/optimize_me/preview_rule', { userId }, { apiKey });
    for (const refused of [both, neither]) {
      expect(refused.status).toBe(400);
      expect(refused.body.results.details).toEqual([{ path: '', message: 'send exactly one of ruleId (a stored rule) and rule (a rule not created yet)' }]);
    }
    expect(await writesOf(token)).toEqual([]);
    expect(await runsOf(apiKey, userId, rule.ruleId)).toEqual([]);
  });

  it('a run pauses each matched campaign once, through campaign control, with the rule in the history, the audit log and a webhook', async () => {
    const { userId, token, campaignIds } = await socialAccountUser(apiKey, 2);
    const rule = await createRule(apiKey, trippingRule(userId, 'social', campaignIds));
    const message = await runMessage(apiKey, userId, [rule.ruleId]);
    // the queue hands the same message to two workers at once: the campaigns are paused once
    await Promise.all([runGroup(message), runGroup(message)]);
    const writes = await writesOf(token);
    expect(writes.map((request) => `${request.method} ${request.path} ${JSON.parse(request.body).status}`).sort()).toEqual(
      campaignIds.map((id) => `POST /v26.0/${id} PAUSED`).sort(),
    );
    const runs = await runsOf(apiKey, userId, rule.ruleId);
    expect(runs).toHaveLength(1); // one log entry per run, however many deliveries
    expect(runs[0]).toMatchObject({ ruleId: rule.ruleId, status: 'completed' });
    for (const action of runs[0]?.actions ?? []) {
      expect(action).toMatchObject({ type: 'PAUSE', from: 'ACTIVE', to: 'PAUSED' });
      // the delivery that wrote the log last acted, or saw the other one acting
      expect(action.outcome === 'applied' || action.reason === 'another delivery of this run is acting on the campaign').toBe(true);
    }

    // a redelivery after the run ended finds the rule already moved on: nothing again
    await runGroup(message);
    expect(await writesOf(token)).toHaveLength(2);

    const history = await call('/optimize_me/get_campaign_optimization_history', { userId, campaignId: campaignIds[0] }, { apiKey });
    expect(history.body.results.campaign.history.at(-1)).toMatchObject({
      change: { field: 'status', from: 'ACTIVE', to: 'PAUSED' },
      source: { type: 'rule', ruleId: rule.ruleId },
    });
    const audit = await call('/tenant/list_audit_events', { userId, action: 'campaign.status_changed' }, { apiKey });
    expect(audit.body.results.events).toHaveLength(2);
    for (const event of audit.body.results.events)
      expect(event).toMatchObject({ actor: { type: 'rule', id: rule.ruleId }, platform: 'social', outcome: 'succeeded' });
    const webhooks = await call('/tenant/list_webhook_events', {}, { apiKey });
    const sent = (webhooks.body.results.events as Array<Record<string, any>>).filter((event) => event.type === 'optimization.applied');
    expect(sent).toHaveLength(2);
    // delivered, signed, with what was done
    const delivered = await eventually(
      async () => {
        const received = (await (await fetch(`${stack().webhookReceiverUrl}/received`)).json()) as Array<{ type: string; verified: boolean; body: any }>;
        const ours = received.filter((entry) => entry.type === 'optimization.applied' && entry.body.data?.ruleId === rule.ruleId);
        return ours.length === 2 ? ours : undefined;
      },
      15_000,
      'the optimization.applied deliveries',
    );
    expect(delivered.map((entry) => entry.body.data).sort((a, b) => a.campaignId.localeCompare(b.campaignId))).toEqual(
      [...campaignIds]
        .sort()
        .map((campaignId) => ({ userId, platform: 'social', campaignId, ruleId: rule.ruleId, change: { field: 'status', from: 'ACTIVE', to: 'PAUSED' } })),
    );

    const [stored] = await listRules(userId);
    expect(Date.parse(stored?.nextRunAt) - Date.parse(stored?.lastRunAt)).toBe(3_600_000);
  });
});
