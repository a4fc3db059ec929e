import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runAdmin, startChildStack, type ChildStack } from '../helpers/child-stack.ts';
import { eventually } from '../helpers/eventually.ts';

/**
 * The optimizer through `npm start`'s own scheduler and queue, and a crash in the middle of a run: the
 * stack is killed (SIGKILL) after the platform took the pause but before the run heard back; after a
 * restart (past the dead delivery's lease on the campaign) the run is queued again and finishes what it
 * began: the campaign paused once, not twice and not never.
 */
const dataDir = mkdtempSync(join(tmpdir(), 'ad-api-rules-crash-'));
const apiKey = 'rules-crash-test-key-0123456789abcdef';
const CAMPAIGN = '120210987000000100';
let stack: ChildStack | undefined;
afterAll(async () => {
  await stack?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Seconds past the campaign lease (30 s) the dead run held: as in the cloud, where its message comes back only after its visibility timeout. */
const AFTER_THE_LEASE_DAYS = String(45 / 86_400);
const start = (env: Record<string, string> = {}) => startChildStack(dataDir, apiKey, { LOG_LEVEL: 'SILENT', RULES_INTERVAL_SECONDS: '1', ...env });
const socialSandboxOf = (child: ChildStack) => /^\s+social\s+(http:\/\/\S+)$/m.exec(child.output())?.[1] as string;

/** A POST to whichever child stack `current` gives when it is called (one is killed and replaced mid-test). */
const poster =
  (current: () => ChildStack | undefined) =>
  async (path: string, body: unknown): Promise<Record<string, any>> =>
    (
      (await (
        await fetch(`${current()?.url}${path}`, {
          method: 'POST',
          headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        })
      ).json()) as { results: Record<string, any> }
    ).results;

async function post(path: string, body: unknown): Promise<Record<string, any>> {
  const response = await fetch(`${stack?.url}${path}`, {
    method: 'POST',
    headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return ((await response.json()) as { results: Record<string, any> }).results;
}

const pauses = async (sandbox: string) =>
  ((await (await fetch(`${sandbox}/__sandbox/requests?includes=${encodeURIComponent('"PAUSED"')}`)).json()) as Array<{ method: string; path: string }>).filter(
    (request) => request.method === 'POST' && request.path.endsWith(`/${CAMPAIGN}`),
  );

describe('a rule run killed mid-write', () => {
  it('acts once after a restart', async () => {
    stack = await start();
    const sandbox = socialSandboxOf(stack);
    // the platform takes the pause and holds its answer back: the run is waiting when the stack dies
    await fetch(`${sandbox}/__sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ requestIncludes: '"PAUSED"', answerDelayMs: 30_000 }),
    });
    const { rule } = await post('/optimize_me/create_rule', {
      userId: 'demo-user',
      platform: 'social',
      name: 'Pause what delivered',
      campaignIds: [CAMPAIGN],
      conditions: [{ metric: 'impressions', operator: '>', value: 0, window: 'LAST_7_DAYS' }],
      action: { type: 'PAUSE' },
      schedule: 'DAILY',
    });
    // the scheduler (every second here) queues the run; the worker sends the pause
    await eventually(async () => ((await pauses(sandbox)).length === 1 ? true : undefined), 20_000, 'the pause to reach the platform');
    await stack.kill();

    // the restart comes after the dead delivery's lease on the campaign ran out
    stack = await start({ LOCAL_CLOCK_OFFSET_DAYS: AFTER_THE_LEASE_DAYS });
    const restarted = socialSandboxOf(stack);
    const runs = await eventually(
      async () => {
        const listed = (await post('/optimize_me/list_rule_runs', { userId: 'demo-user', ruleId: rule.ruleId })).runs as Array<Record<string, any>>;
        return listed[0]?.status === 'completed' ? listed : undefined;
      },
      20_000,
      'the run to end after the restart',
    );
    expect(runs).toHaveLength(1);
    expect(runs[0]?.actions).toEqual([{ campaignId: CAMPAIGN, type: 'PAUSE', from: 'ACTIVE', to: 'PAUSED', outcome: 'applied' }]);
    // the restarted run read the campaign paused and wrote nothing: one pause in all
    expect(await pauses(restarted)).toEqual([]);
    // the resumed action records what it had decided: one history entry and one audit event, as the rule
    const { history } = (await post('/optimize_me/get_campaign_optimization_history', { userId: 'demo-user', campaignId: CAMPAIGN })).campaign;
    expect(history.filter((entry: Record<string, any>) => entry.change)).toEqual([
      expect.objectContaining({ change: { field: 'status', from: 'ACTIVE', to: 'PAUSED' }, source: { type: 'rule', ruleId: rule.ruleId } }),
    ]);
    const { events } = await post('/tenant/list_audit_events', { userId: 'demo-user', action: 'campaign.status_changed' });
    expect(events).toEqual([
      expect.objectContaining({
        actor: { type: 'rule', id: rule.ruleId },
        target: { type: 'campaign', id: CAMPAIGN },
        changes: { status: { from: 'ACTIVE', to: 'PAUSED' } },
        outcome: 'succeeded',
      }),
    ]);
    expect(await post('/social/update_campaign_status', { userId: 'demo-user', campaignId: CAMPAIGN, status: 'PAUSED' })).toMatchObject({ changed: false });
    const [stored] = (await post('/optimize_me/list_rules', { userId: 'demo-user' })).rules;
    expect(stored).toMatchObject({ ruleId: rule.ruleId, consecutiveFailedRuns: 0 });
    expect(Date.parse(stored.nextRunAt)).toBeGreaterThan(Date.parse(stored.lastRunAt));
  }, 120_000);
});

describe('npm run admin -- run-rules', () => {
  const adminDir = mkdtempSync(join(tmpdir(), 'ad-api-run-rules-'));
  let child: ChildStack | undefined;
  afterAll(async () => {
    await child?.stop();
    rmSync(adminDir, { recursive: true, force: true });
  });
  const send = poster(() => child);
  const pauseRule = (campaignId: string) => ({
    userId: 'demo-user',
    platform: 'social',
    name: `Pause ${campaignId}`,
    campaignIds: [campaignId],
    conditions: [{ metric: 'spend', operator: '>', value: 10, window: 'LAST_7_DAYS' }],
    action: { type: 'PAUSE' },
    schedule: 'DAILY',
  });

  it('asks the running stack to run the due rules, and runs them itself when the stack is stopped', async () => {
    // the stack's own scheduler waits its 15 minutes: only run-rules runs these rules
    child = await startChildStack(adminDir, apiKey, { LOG_LEVEL: 'SILENT' });
    const first = (await send('/optimize_me/create_rule', pauseRule('120210987000000106'))).rule;
    const asked = await runAdmin(adminDir, ['run-rules']);
    expect(asked.code).toBe(0);
    expect(JSON.parse(asked.stdout.trim().split('\n').at(-1) as string)).toMatchObject({ askedStack: expect.any(Number) });
    const runs = await eventually(
      async () => {
        const listed = (await send('/optimize_me/list_rule_runs', { userId: 'demo-user', ruleId: first.ruleId })).runs as Array<Record<string, any>>;
        return listed.length > 0 ? listed : undefined;
      },
      20_000,
      'the run the running stack made',
    );
    expect(runs[0]?.actions).toEqual([expect.objectContaining({ campaignId: '120210987000000106', outcome: 'applied' })]);

    const second = (await send('/optimize_me/create_rule', pauseRule('120210987000000107'))).rule;
    expect(await child.stop()).toBe(0);
    child = undefined;
    const ran = await runAdmin(adminDir, ['run-rules']);
    expect(ran.code, ran.stderr).toBe(0);
    expect(JSON.parse(ran.stdout.trim().split('\n').at(-1) as string)).toMatchObject({ ran: true });
    const restartedAt = Date.now();
    child = await startChildStack(adminDir, apiKey, { LOG_LEVEL: 'SILENT' });
    const [run] = (await send('/optimize_me/list_rule_runs', { userId: 'demo-user', ruleId: second.ruleId })).runs;
    // made by run-rules, before this start (which would otherwise have run the due rule itself)
    expect(run).toMatchObject({ status: 'completed', actions: [expect.objectContaining({ outcome: 'applied' })] });
    expect(Date.parse(run.finishedAt)).toBeLessThan(restartedAt);
  }, 120_000);

  it('three at once with the stack stopped: one stack opens the folder, the others hand it the pass, and the due rule runs once', async () => {
    await child?.stop();
    child = await startChildStack(adminDir, apiKey, { LOG_LEVEL: 'SILENT' });
    const rule = (
      await send('/optimize_me/create_rule', {
        ...pauseRule('120210987000000100'),
        conditions: [{ metric: 'impressions', operator: '>', value: 0, window: 'LAST_7_DAYS' }],
      })
    ).rule;
    expect(await child.stop()).toBe(0);
    child = undefined;
    const passes = await Promise.all([1, 2, 3].map(() => runAdmin(adminDir, ['run-rules'])));
    for (const pass of passes) expect(pass.code, pass.stderr).toBe(0);
    const printed = passes.map((pass) => JSON.parse(pass.stdout.trim().split('\n').at(-1) as string) as Record<string, unknown>);
    expect(printed.filter((line) => line.ran === true).length).toBeGreaterThanOrEqual(1);
    child = await startChildStack(adminDir, apiKey, { LOG_LEVEL: 'SILENT' });
    const runs = (await send('/optimize_me/list_rule_runs', { userId: 'demo-user', ruleId: rule.ruleId })).runs;
    expect(runs).toEqual([expect.objectContaining({ status: 'completed', actions: [expect.objectContaining({ outcome: 'applied' })] })]);
  }, 120_000);
});

describe('an approval killed between the platform’s write and its record', () => {
  const approvalDir = mkdtempSync(join(tmpdir(), 'ad-api-approval-crash-'));
  const sweepDir = mkdtempSync(join(tmpdir(), 'ad-api-approval-sweep-'));
  const CAMPAIGN_TO_APPROVE = '120210987000000106';
  let child: ChildStack | undefined;
  afterAll(async () => {
    await child?.stop();
    for (const dir of [approvalDir, sweepDir]) rmSync(dir, { recursive: true, force: true });
  });
  const send = poster(() => child);
  const pausesOf = async (sandbox: string) =>
    (
      (await (await fetch(`${sandbox}/__sandbox/requests?includes=${encodeURIComponent('"PAUSED"')}`)).json()) as Array<{ method: string; path: string }>
    ).filter((request) => request.method === 'POST' && request.path.endsWith(`/${CAMPAIGN_TO_APPROVE}`));

  /** A rule proposes; a person approves; the platform takes the pause, and the stack is killed before it hears so. */
  async function killDuringApproval(dir: string) {
    child = await startChildStack(dir, apiKey, { LOG_LEVEL: 'SILENT', RULES_INTERVAL_SECONDS: '1' });
    const rule = (
      await send('/optimize_me/create_rule', {
        userId: 'demo-user',
        platform: 'social',
        name: 'Ask before pausing',
        campaignIds: [CAMPAIGN_TO_APPROVE],
        conditions: [{ metric: 'impressions', operator: '>', value: 0, window: 'LAST_7_DAYS' }],
        action: { type: 'PAUSE', mode: 'approve' },
        schedule: 'DAILY',
      })
    ).rule;
    const [proposal] = await eventually(
      async () => {
        const listed = (await send('/optimize_me/list_proposals', { userId: 'demo-user', ruleId: rule.ruleId })).proposals as Array<Record<string, any>>;
        return listed.length > 0 ? listed : undefined;
      },
      20_000,
      'the rule’s proposal',
    );
    const sandbox = socialSandboxOf(child);
    // the platform takes the pause and holds its answer back: the approval is waiting when the stack dies
    await fetch(`${sandbox}/__sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ requestIncludes: '"PAUSED"', answerDelayMs: 30_000 }),
    });
    const approving = send('/optimize_me/decide_proposal', { userId: 'demo-user', proposalId: proposal?.proposalId, decision: 'approve' }).catch(
      () => undefined,
    );
    await eventually(async () => ((await pausesOf(sandbox)).length === 1 ? true : undefined), 20_000, 'the pause to reach the platform');
    await child.kill();
    await approving;
    return { rule, proposalId: proposal?.proposalId as string };
  }

  /** Applied once: no pause sent again (read back), one history entry naming the rule and the proposal, one audit event. */
  async function expectAppliedOnce(ruleId: string, proposalId: string) {
    expect(await pausesOf(socialSandboxOf(child as ChildStack))).toEqual([]);
    const { history } = (await send('/optimize_me/get_campaign_optimization_history', { userId: 'demo-user', campaignId: CAMPAIGN_TO_APPROVE })).campaign;
    expect(history.filter((entry: Record<string, any>) => entry.change)).toEqual([
      expect.objectContaining({ change: { field: 'status', from: 'ACTIVE', to: 'PAUSED' }, source: { type: 'rule', ruleId, proposalId } }),
    ]);
    const { events } = await send('/tenant/list_audit_events', { userId: 'demo-user', action: 'campaign.status_changed' });
    expect(events).toHaveLength(1);
    // and another approval answers the same, with nothing more done
    expect((await send('/optimize_me/decide_proposal', { userId: 'demo-user', proposalId, decision: 'approve' })).proposal.status).toBe('applied');
    return events[0] as Record<string, any>;
  }

  it('is finished by the repeat after a restart: paused once, recorded once, applied', async () => {
    const { rule, proposalId } = await killDuringApproval(approvalDir);
    // the person asks again once the stack is back (after the dead request's lease on the campaign)
    child = await startChildStack(approvalDir, apiKey, { LOG_LEVEL: 'SILENT', LOCAL_CLOCK_OFFSET_DAYS: AFTER_THE_LEASE_DAYS });
    const again = await send('/optimize_me/decide_proposal', { userId: 'demo-user', proposalId, decision: 'approve' });
    expect(again).toMatchObject({ success: true, proposal: { status: 'applied' } });
    const event = await expectAppliedOnce(rule.ruleId, proposalId);
    expect(event.actor.type).toBe('api_key');
  }, 120_000);

  it('is finished by the scheduler’s sweep after a restart, with no one asking again', async () => {
    await child?.stop();
    const { rule, proposalId } = await killDuringApproval(sweepDir);
    // back six minutes later: the approval is older than a live request could be; the restart's pass of the scheduler finds it
    child = await startChildStack(sweepDir, apiKey, { LOG_LEVEL: 'SILENT', LOCAL_CLOCK_OFFSET_DAYS: String(360 / 86_400) });
    await eventually(
      async () => {
        const [listed] = (await send('/optimize_me/list_proposals', { userId: 'demo-user', ruleId: rule.ruleId })).proposals as Array<Record<string, any>>;
        return listed?.status === 'applied' ? true : undefined;
      },
      30_000,
      'the sweep to finish the approval',
    );
    const event = await expectAppliedOnce(rule.ruleId, proposalId);
    expect(event.actor).toMatchObject({ type: 'system', id: 'proposal_sweep' });
  }, 120_000);
});
