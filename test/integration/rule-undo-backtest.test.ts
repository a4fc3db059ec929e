import { randomBytes, randomInt } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, newTenant, newUser } from '../helpers/api.ts';
import { createRule, runGroup, runMessage, runsOf, socialAccountUser, trippingRule } from '../helpers/rules.ts';
import { seedCampaigns } from '../helpers/scale.ts';
import { injectFault, upstreamRequests, upstreamRequestCount, upstreamRequestsWith } from '../helpers/sandbox.ts';
import { jobToEnd } from '../helpers/uploads.ts';
import { undoRuleRun } from '../../functions/use-cases/rules/rule-undo-request.ts';
import { findTenantIdByKeyHash, hashApiKey } from '../../shared/store/api-key-lookup.ts';
import { findUser } from '../../shared/store/users.ts';

/**
 * Undoing a rule run, trying a rule on the past, and conditions that compare two windows
 * (docs/rules.md): an undo sets back only what still holds the rule's value, newest first, once; a
 * backtest reads the figures once for the whole range and writes nothing; a compared condition reads
 * each window once per group, on every platform.
 */
let apiKey = '';
beforeAll(async () => {
  apiKey = await newTenant();
});

const writesOf = async (token: string) => (await upstreamRequestsWith('social', token)).filter((request) => request.method !== 'GET');
const undo = (userId: string, runId: string) => call('/optimize_me/undo_rule_run', { userId, runId }, { apiKey });

describe('undo_rule_run', () => {
  it('sets back newest first what still holds the rule’s value, skips what changed since, once however often asked', async () => {
    const { userId, token, campaignIds } = await socialAccountUser(apiKey, 3);
    const rule = await createRule(apiKey, trippingRule(userId, 'social', campaignIds));
    await runGroup(await runMessage(apiKey, userId, [rule.ruleId]));
    const [run] = await runsOf(apiKey, userId, rule.ruleId);
    expect(run?.actions.map((action: Record<string, any>) => action.outcome)).toEqual(['applied', 'applied', 'applied']);
    // someone activates the second campaign again: the undo must leave it alone
    const [first, second, third] = campaignIds as [string, string, string];
    await call('/social/update_campaign_status', { userId, campaignId: second, status: 'ACTIVE' }, { apiKey });
    const before = (await writesOf(token)).length;

    const answers = await Promise.all([undo(userId, run?.runId), undo(userId, run?.runId)]);
    for (const answer of answers) expect(answer.status, answer.text).toBe(200);
    const answer = answers[0] as (typeof answers)[number];
    expect(answers[1]?.body.results.actions).toEqual(answer.body.results.actions);
    expect(answer.body.results).toMatchObject({ success: true, runId: run?.runId, undoneAt: expect.any(String) });
    expect(answer.body.results.actions).toEqual([
      { campaignId: third, type: 'PAUSE', from: 'PAUSED', to: 'ACTIVE', outcome: 'applied' },
      { campaignId: second, type: 'PAUSE', from: 'PAUSED', to: 'ACTIVE', outcome: 'skipped', reason: expect.stringContaining('changed since') },
      { campaignId: first, type: 'PAUSE', from: 'PAUSED', to: 'ACTIVE', outcome: 'applied' },
    ]);
    const writes = (await writesOf(token)).slice(before);
    expect(writes.map((request) => `${request.path} ${JSON.parse(request.body).status}`)).toEqual([`/v26.0/${third} ACTIVE`, `/v26.0/${first} ACTIVE`]);

    const history = await call('/optimize_me/get_campaign_optimization_history', { userId, campaignId: first }, { apiKey });
    expect(history.body.results.campaign.history.filter((entry: Record<string, any>) => entry.change).at(-1)).toMatchObject({
      change: { field: 'status', from: 'PAUSED', to: 'ACTIVE' },
      source: { type: 'undo', runId: run?.runId },
    });
    const audit = (await call('/tenant/list_audit_events', { userId, action: 'rule_run.undone' }, { apiKey })).body.results.events;
    expect(audit).toEqual([expect.objectContaining({ target: { type: 'rule_run', id: run?.runId }, actor: expect.objectContaining({ type: 'api_key' }) })]);

    // a repeat answers the first undo's result, and writes nothing
    const repeat = await undo(userId, run?.runId);
    expect(repeat.body.results.actions).toEqual(answer.body.results.actions);
    expect(repeat.body.results.undoneAt).toBe(answer.body.results.undoneAt);
    expect((await writesOf(token)).length).toBe(before + 2);
  });

  it('a run that changed more than a request’s time sets back: the request answers the job to follow, which sets back the rest, each once', async () => {
    const { userId, token, campaignIds } = await socialAccountUser(apiKey, 6);
    const rule = await createRule(apiKey, trippingRule(userId, 'social', campaignIds));
    await runGroup(await runMessage(apiKey, userId, [rule.ruleId]));
    const [run] = await runsOf(apiKey, userId, rule.ruleId);
    const before = (await writesOf(token)).length;
    // each campaign's read answers after 0.8 s: six take longer than the request's slice of its time
    for (const campaignId of campaignIds) await injectFault('social', { pathIncludes: campaignId, delayMs: 800, times: 1 });
    const tenantId = (await findTenantIdByKeyHash(hashApiKey(apiKey))) as string;
    const user = (await findUser(tenantId, userId)) as NonNullable<Awaited<ReturnType<typeof findUser>>>;
    // a request with 7 s left: its slice ends 4 s before (the largest upstream wait and the answer's margin)
    const answer = await undoRuleRun(tenantId, user, run?.runId, { getRemainingTimeInMillis: () => 7_000 } as never);
    expect(answer).toMatchObject({ runId: run?.runId, status: 'running', jobId: expect.stringMatching(/^job_/) });
    const { actions: soFar, jobId } = answer as { actions: unknown[]; jobId: string };
    expect(soFar.length).toBeGreaterThan(0);
    expect(soFar.length).toBeLessThan(6);

    const { job } = await jobToEnd(apiKey, jobId);
    expect(job).toMatchObject({ type: 'rule_undo', status: 'succeeded', result: { runId: run?.runId, status: 'undone' } });
    expect(job.result.actions).toHaveLength(6);
    expect(job.result.actions.every((action: { outcome: string }) => action.outcome === 'applied')).toBe(true);
    expect(job.result.actions.slice(0, soFar.length)).toEqual(soFar);
    // each campaign set back once, whoever set it back; and undo_rule_run answers the job's undo from now on
    const writes = (await writesOf(token)).slice(before);
    expect(writes.map((request) => request.path).sort()).toEqual(campaignIds.map((id) => `/v26.0/${id}`).sort());
    const repeat = await undo(userId, run?.runId);
    expect(repeat.body.results).toMatchObject({ status: 'undone', undoneAt: job.result.undoneAt, actions: job.result.actions });
    expect((await writesOf(token)).length).toBe(before + 6);
  });

  it('sets a budget back to what the rule replaced', async () => {
    const { userId, token, campaignIds } = await socialAccountUser(apiKey, 1);
    const rule = await createRule(
      apiKey,
      trippingRule(userId, 'social', campaignIds, { action: { type: 'CHANGE_DAILY_BUDGET', percent: 20, minDailyBudget: '1', maxDailyBudget: '100000' } }),
    );
    await runGroup(await runMessage(apiKey, userId, [rule.ruleId]));
    const [run] = await runsOf(apiKey, userId, rule.ruleId);
    const [action] = (run?.actions ?? []) as [Record<string, any>];
    expect(action.outcome).toBe('applied');
    const answer = await undo(userId, run?.runId);
    expect(answer.body.results.actions).toEqual([
      { campaignId: campaignIds[0], type: 'CHANGE_DAILY_BUDGET', from: action.to, to: action.from, outcome: 'applied' },
    ]);
    const budgets = (await writesOf(token)).map((request) => JSON.parse(request.body).daily_budget);
    expect(budgets).toHaveLength(2);
    expect(Number(budgets[1]) / 100).toBe(Number(action.from));
  });

  it('sets back what a person approved from the run’s proposals, and leaves what was not approved', async () => {
    const { userId, token, campaignIds } = await socialAccountUser(apiKey, 2);
    const rule = await createRule(apiKey, trippingRule(userId, 'social', campaignIds, { action: { type: 'PAUSE', mode: 'approve' } }));
    await runGroup(await runMessage(apiKey, userId, [rule.ruleId]));
    const [run] = await runsOf(apiKey, userId, rule.ruleId);
    const [approved, left] = (run?.actions ?? []) as [Record<string, any>, Record<string, any>];
    const decided = await call('/optimize_me/decide_proposal', { userId, proposalId: approved.proposalId, decision: 'approve' }, { apiKey });
    expect(decided.body.results.proposal.status).toBe('applied');
    const answer = await undo(userId, run?.runId);
    expect(answer.body.results.actions).toEqual([{ campaignId: approved.campaignId, type: 'PAUSE', from: 'PAUSED', to: 'ACTIVE', outcome: 'applied' }]);
    expect((await writesOf(token)).map((request) => `${request.path} ${JSON.parse(request.body).status}`)).toEqual([
      `/v26.0/${approved.campaignId} PAUSED`,
      `/v26.0/${approved.campaignId} ACTIVE`,
    ]);
    expect(left.outcome).toBe('proposed');
  });

  it('withdraws the run’s pending proposals: one approved after the undo is refused and changes nothing no undo could reverse', async () => {
    const { userId, token, campaignIds } = await socialAccountUser(apiKey, 2);
    const rule = await createRule(apiKey, trippingRule(userId, 'social', campaignIds, { action: { type: 'PAUSE', mode: 'approve' } }));
    await runGroup(await runMessage(apiKey, userId, [rule.ruleId]));
    const [run] = await runsOf(apiKey, userId, rule.ruleId);
    const proposals = (run?.actions ?? []).map((action: Record<string, any>) => action.proposalId as string);
    expect(proposals).toHaveLength(2);
    expect((await undo(userId, run?.runId)).body.results.actions).toEqual([]);
    for (const proposalId of proposals) {
      const late = await call('/optimize_me/decide_proposal', { userId, proposalId, decision: 'approve' }, { apiKey });
      expect(late.body.results).toMatchObject({ success: false, code: 'PROPOSAL_EXPIRED', proposal: { status: 'expired', error: { code: 'RUN_UNDONE' } } });
      expect(late.body.results.error).toMatch(/was undone/);
    }
    const listed = await call('/optimize_me/list_proposals', { userId }, { apiKey });
    expect((listed.body.results.proposals as Array<{ status: string }>).map((proposal) => proposal.status)).toEqual(['expired', 'expired']);
    expect(await writesOf(token)).toEqual([]);
  });

  it('refuses a run that is not the user’s, a malformed id, and one past its week', async () => {
    const { userId } = await socialAccountUser(apiKey, 1);
    const unknown = await undo(userId, `run_${Date.now()}_${'a'.repeat(24)}`);
    expect(unknown.status).toBe(404);
    const malformed = await undo(userId, 'run_yesterday');
    expect(malformed.status).toBe(400);
    expect(malformed.body.results.details.map((detail: { path: string }) => detail.path)).toEqual(['runId']);
  });
});

describe('backtest_rule', () => {
  it('takes exactly one of a stored rule and a rule to try: neither, or both, is a 400 that says so', async () => {
    const { userId, campaignIds } = await socialAccountUser(apiKey, 1);
    const rule = await createRule(apiKey, trippingRule(userId, 'social', campaignIds));
    const { userId: _user, ...definition } = trippingRule(userId, 'social', campaignIds);
    for (const body of [
      { userId, days: 7 },
      { userId, days: 7, ruleId: rule.ruleId, rule: definition },
    ]) {
      const refused = await call('/optimize_me/backtest_rule', body, { apiKey });
      expect(refused.status).toBe(400);
      expect(refused.body.results.details).toEqual([{ path: '', message: 'send exactly one of ruleId (a stored rule) and rule (a rule not created yet)' }]);
    }
  });

  it('tries a rule day by day with its cooldown and bounds, reads the figures once, and writes nothing', async () => {
    const { userId, token, campaignIds } = await socialAccountUser(apiKey, 3);
    const rule = await createRule(
      apiKey,
      trippingRule(userId, 'social', campaignIds, {
        conditions: [{ metric: 'impressions', operator: '>', value: 0, window: 'YESTERDAY' }],
        action: { type: 'CHANGE_DAILY_BUDGET', percent: 50, minDailyBudget: '1', maxDailyBudget: '100' },
        cooldownHours: 48,
        enabled: false,
      }),
    );
    const before = await upstreamRequestsWith('social', token);
    const answer = await call('/optimize_me/backtest_rule', { userId, ruleId: rule.ruleId, days: 10 }, { apiKey });
    expect(answer.status, answer.text).toBe(200);
    const { days, summary } = answer.body.results;
    expect(days).toHaveLength(10);
    expect(days.map((day: { date: string }) => day.date)).toEqual([...days.map((day: { date: string }) => day.date)].sort());
    for (const campaignId of campaignIds) {
      const acted = days.flatMap((day: { date: string; evaluations: Array<Record<string, any>> }) =>
        day.evaluations
          .filter((evaluation) => evaluation.campaignId === campaignId && evaluation.action)
          .map((evaluation) => ({ date: day.date, ...evaluation.action })),
      );
      // every other day (a 48 h cooldown), each step 50 % up, never past 100
      expect(acted.length).toBeGreaterThan(0);
      for (let index = 1; index < acted.length; index++) {
        expect((Date.parse(acted[index].date) - Date.parse(acted[index - 1].date)) / 86_400_000).toBeGreaterThanOrEqual(2);
        expect(acted[index].from).toBe(acted[index - 1].to);
      }
      for (const step of acted) expect(Number(step.to)).toBeLessThanOrEqual(100);
    }
    expect(summary.campaigns).toBe(3);
    // the figures of the whole range once, the campaigns once; nothing written
    const made = (await upstreamRequestsWith('social', token)).slice(before.length);
    expect(made.filter((request) => request.path.endsWith('/insights'))).toHaveLength(1);
    expect(made.filter((request) => request.path.endsWith('/campaigns'))).toHaveLength(1);
    expect(made.filter((request) => request.method !== 'GET')).toEqual([]);

    const bad = await call('/optimize_me/backtest_rule', { userId, ruleId: rule.ruleId, days: 31 }, { apiKey });
    expect(bad.status).toBe(400);
  });
});

describe('conditions comparing two windows', () => {
  // a change is never below −100 %: every campaign with figures in the base window matches, whatever the
  // sandbox's days hold (one day in six has no delivery there, so a recent window of none, −100 %, happens)
  const compared = [{ metric: 'impressions', operator: '>=', value: -100, window: 'LAST_3_DAYS', compareTo: { window: 'LAST_14_DAYS' } }];

  it.each([
    ['social', async () => socialAccountUser(apiKey, 2)],
    [
      'searchads',
      async () => {
        const customerId = String(randomInt(1_000_000_000, 6_999_999_999));
        const campaignIds = await seedCampaigns('searchads', customerId, 2);
        return {
          userId: await newUser(apiKey, { searchads: { refreshToken: `1//rules-${randomBytes(6).toString('hex')}`, customerId } }),
          campaignIds,
          account: customerId,
        };
      },
    ],
    [
      'professional',
      async () => {
        const account = String(randomInt(610_000_000, 699_999_999));
        const campaignIds = await seedCampaigns('professional', account, 2);
        return {
          userId: await newUser(apiKey, { professional: { accessToken: `AQV${randomBytes(12).toString('hex')}`, adAccountId: account } }),
          campaignIds,
          account,
        };
      },
    ],
  ] as const)('%s: the change in percent between the windows, each window read once', async (platform, makeUser) => {
    const { userId, campaignIds, account } = await makeUser();
    // this test's own requests: each names its ad account or one of its campaigns (other files' requests reach the same sandbox meanwhile)
    const ours = async (since: number) =>
      (await upstreamRequests(platform, since)).filter((request) =>
        [account, ...campaignIds].some((id) => `${request.path}?${request.rawQuery}\n${request.body}`.includes(id)),
      );
    const from = await upstreamRequestCount(platform);
    const preview = await call(
      '/optimize_me/preview_rule',
      {
        userId,
        rule: { platform, name: 'Impressions moving', campaignIds, conditions: compared, action: { type: 'PAUSE', mode: 'notify' }, schedule: 'DAILY' },
      },
      { apiKey },
    );
    expect(preview.status, preview.text).toBe(200);
    for (const evaluation of preview.body.results.evaluations) {
      // sums compare per day of their window
      const recent = Number(evaluation.metrics['impressions.LAST_3_DAYS']) / 3;
      const base = Number(evaluation.metrics['impressions.LAST_14_DAYS']) / 14;
      const change = evaluation.metrics['impressions.LAST_3_DAYS.vs.LAST_14_DAYS'];
      expect(base).toBeGreaterThan(0);
      expect(Number(change)).toBeCloseTo(((recent - base) / base) * 100, 3);
      expect(evaluation.matched).toBe(true);
    }
    const reads = (await ours(from)).filter((request) => /insights|searchStream|adAnalytics/.test(request.path));
    expect(reads).toHaveLength(2);

    // the same rule on the last week: one read of the figures, the campaigns as they are now, nothing written
    const { rule: _rule, ...asked } = { rule: 0, userId };
    const since = await upstreamRequestCount(platform);
    const backtest = await call(
      '/optimize_me/backtest_rule',
      { ...asked, days: 7, rule: { platform, name: 'Pause on a drop', campaignIds, conditions: compared, action: { type: 'PAUSE' }, schedule: 'DAILY' } },
      { apiKey },
    );
    expect(backtest.status, backtest.text).toBe(200);
    expect(backtest.body.results.summary, JSON.stringify(backtest.body.results.days.at(-1))).toEqual({ actions: 2, campaigns: 2 });
    const made = await ours(since);
    expect(made.filter((request) => /insights|searchStream|adAnalytics/.test(request.path))).toHaveLength(1);
    // nothing written: every request of this account was a read (GET, or a GAQL search)
    expect(made.filter((request) => request.method !== 'GET' && !/googleAds:search(Stream)?$/.test(request.path))).toEqual([]);
  });

  it('refuses a compared condition against its own window and a negative value without one', async () => {
    const { userId, campaignIds } = await socialAccountUser(apiKey, 1);
    const response = await call(
      '/optimize_me/create_rule',
      trippingRule(userId, 'social', campaignIds, {
        conditions: [
          { metric: 'cpc', operator: '>', value: 20, window: 'LAST_3_DAYS', compareTo: { window: 'LAST_3_DAYS' } },
          { metric: 'cpc', operator: '<', value: -5, window: 'LAST_7_DAYS' },
        ],
      }),
      { apiKey },
    );
    expect(response.status).toBe(400);
    expect(response.body.results.details.map((detail: { path: string }) => detail.path).sort()).toEqual([
      'conditions.0.compareTo.window',
      'conditions.1.value',
    ]);
  });
});
