import { describe, expect, it } from 'vitest';
import type { StepStore } from '../../shared/core/exactly-once.ts';
import type { PlannedChange } from '../../shared/rules/evaluation.ts';
import type { RuleActionOutcome } from '../../shared/schemas/rules.ts';
import type { RuleActionKey } from '../../shared/store/rule-writes.ts';
import { type ActionContext, type ActionPorts, actOn } from '../../functions/use-cases/rules/rule-actions.ts';
import { memoryStepStore } from '../helpers/fakes.ts';

/**
 * A rule's action on one campaign, on fakes (no store, no platform): what a crash mid-write, a
 * redelivered run and two deliveries at once do. The stack test (rules-crash.test.ts) kills a real
 * process for the same cases; these run in milliseconds.
 */
const PAUSE: PlannedChange = { field: 'status', from: 'ACTIVE', to: 'PAUSED' };
const CAMPAIGN = '120210987000000101';

function world() {
  const memory = memoryStepStore<PlannedChange, RuleActionOutcome>();
  const steps: StepStore<RuleActionKey, PlannedChange, RuleActionOutcome> = {
    find: (key) => memory.find(JSON.stringify(key)),
    begin: (key, intent) => memory.begin(JSON.stringify(key), intent),
    complete: (key, result) => memory.complete(JSON.stringify(key), result),
  };
  const seen = { decisions: 0, writes: [] as PlannedChange[], announced: [] as unknown[] };
  let crashNextWrite = false;
  let decideGate: Promise<void> = Promise.resolve();
  const ports: ActionPorts = {
    steps,
    underLease: (_scope, work) => work(),
    decide: async () => {
      await decideGate;
      seen.decisions++;
      return { kind: 'act', change: PAUSE, campaign: { id: CAMPAIGN } as never };
    },
    apply: async (_context, campaignId, _campaign, change) => {
      seen.writes.push(change);
      if (crashNextWrite) {
        crashNextWrite = false;
        throw new Error('the process died after the platform took the write');
      }
      return { campaignId, type: 'PAUSE', from: change.from, to: change.to, outcome: 'applied', change };
    },
    announce: async (_tenantId, applied) => void seen.announced.push(applied),
  };
  const context = (runId = 'run_0000000000001_aaaa'): ActionContext => ({
    tenantId: 'tnt_1',
    userId: 'user-1',
    rule: { ruleId: 'rul_1', action: { type: 'PAUSE' }, cooldownHours: 24 },
    runId,
    platform: { control: { platform: 'social' } } as never,
    session: {},
    timeZone: 'UTC',
    spend: async () => true,
    ports,
  });
  return {
    memory,
    seen,
    context,
    crashNextWrite: () => {
      crashNextWrite = true;
    },
    holdDecisions: () => {
      let release = () => {};
      decideGate = new Promise((resolve) => {
        release = resolve;
      });
      return release;
    },
  };
}

describe('a rule’s action, exactly once', () => {
  it('acts, records its end and announces once', async () => {
    const { seen, context } = world();
    const { outcome } = await actOn(context(), CAMPAIGN);
    expect(outcome).toMatchObject({ outcome: 'applied', from: 'ACTIVE', to: 'PAUSED' });
    expect(seen).toMatchObject({ decisions: 1, writes: [PAUSE] });
    expect(seen.announced).toHaveLength(1);
  });

  it('a crash after the write: the redelivered run finishes the stored intent without deciding again, and announces once', async () => {
    const { memory, seen, context, crashNextWrite } = world();
    crashNextWrite();
    await expect(actOn(context(), CAMPAIGN)).rejects.toThrow('the process died');
    expect([...memory.records.values()]).toEqual([{ status: 'in_progress', intent: PAUSE }]);

    const { outcome } = await actOn(context(), CAMPAIGN); // the queue hands the run back
    expect(outcome).toMatchObject({ outcome: 'applied', to: 'PAUSED' });
    expect(seen.decisions).toBe(1); // decided once, before the crash
    expect(seen.writes).toEqual([PAUSE, PAUSE]); // the write is made again from the stored intent (the control code reads back first)
    expect(seen.announced).toHaveLength(1);
  });

  it('a run delivered again after it ended: the stored outcome, no decision, no write, no announcement', async () => {
    const { seen, context } = world();
    await actOn(context(), CAMPAIGN);
    const again = await actOn(context(), CAMPAIGN);
    expect(again.outcome).toMatchObject({ outcome: 'applied', to: 'PAUSED' });
    expect(seen).toMatchObject({ decisions: 1, writes: [PAUSE] });
    expect(seen.announced).toHaveLength(1);
  });

  it('two deliveries at once (both decided): the one that stores the step acts and announces, the other says another delivery is acting', async () => {
    const { seen, context, holdDecisions } = world();
    const release = holdDecisions();
    const both = Promise.all([actOn(context(), CAMPAIGN), actOn(context(), CAMPAIGN)]);
    release();
    const outcomes = (await both).map(({ outcome }) => outcome.outcome).sort();
    expect(outcomes).toEqual(['applied', 'skipped']);
    expect((await both).find(({ outcome }) => outcome.outcome === 'skipped')?.outcome.reason).toContain('another delivery');
    expect(seen.decisions).toBe(2);
    expect(seen.writes).toEqual([PAUSE]);
    expect(seen.announced).toHaveLength(1);
  });

  it('the same campaign in the next run is a new step', async () => {
    const { seen, context } = world();
    await actOn(context('run_0000000000001_aaaa'), CAMPAIGN);
    await actOn(context('run_0000000003601_aaaa'), CAMPAIGN);
    expect(seen.decisions).toBe(2);
    expect(seen.announced).toHaveLength(2);
  });
});
