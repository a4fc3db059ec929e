import { describe, expect, it } from 'vitest';
import { exactlyOnce, type Step } from '../../shared/core/exactly-once.ts';
import { memoryStepStore } from '../helpers/fakes.ts';

/**
 * The exactly-once step on an in-memory store: decided once, done once, announced once, whatever the
 * deliveries: a second after the first, two at the same time, one after a crash mid-step.
 */
type Intent = { to: string };
type Result = { done: string };

function world() {
  const store = memoryStepStore<Intent, Result>();
  const calls = { decide: 0, perform: [] as Array<{ intent: Intent; resumed: boolean }> };
  let platform = 'ACTIVE';
  const step = (overrides: Partial<Step<string, Intent, Result>> = {}): Step<string, Intent, Result> => ({
    store,
    key: 'rule-1/run-1/campaign-1',
    decide: async () => {
      calls.decide++;
      return platform === 'PAUSED' ? { nothing: { done: 'already paused' } } : { intent: { to: 'PAUSED' } };
    },
    perform: async (intent, resumed) => {
      calls.perform.push({ intent, resumed });
      platform = intent.to;
      return { done: `paused${resumed ? ' (resumed)' : ''}` };
    },
    ...overrides,
  });
  return { store, calls, step, platform: () => platform };
}

describe('exactlyOnce', () => {
  it('a first delivery decides, begins, performs and completes; a second reuses the result and does nothing', async () => {
    const { store, calls, step } = world();
    expect(await exactlyOnce(step())).toEqual({ by: 'this', intent: { to: 'PAUSED' }, result: { done: 'paused' } });
    expect(await exactlyOnce(step())).toEqual({ by: 'other', intent: { to: 'PAUSED' }, result: { done: 'paused' } });
    expect(calls.decide).toBe(1);
    expect(calls.perform).toHaveLength(1);
    expect(store.records.get('rule-1/run-1/campaign-1')).toEqual({ status: 'completed', intent: { to: 'PAUSED' }, result: { done: 'paused' } });
  });

  it('a crash after the platform acted: the next delivery finishes with the stored intent, without deciding again', async () => {
    const { calls, step } = world();
    const crash = new Error('killed');
    await expect(
      exactlyOnce(
        step({
          perform: async () => {
            throw crash; // the write reached the platform; the process died before the step completed
          },
        }),
      ),
    ).rejects.toBe(crash);
    // the world moved (the platform paused the campaign): deciding again would say "nothing to do"
    const resumed = await exactlyOnce(step());
    expect(resumed).toEqual({ by: 'this', intent: { to: 'PAUSED' }, result: { done: 'paused (resumed)' } });
    expect(calls.decide).toBe(1);
    expect(calls.perform).toEqual([{ intent: { to: 'PAUSED' }, resumed: true }]);
  });

  it('two deliveries at the same time: one performs and announces, the other does neither', async () => {
    const { calls, step } = world();
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const first = exactlyOnce(
      step({
        perform: async (intent, resumed) => {
          calls.perform.push({ intent, resumed });
          await held;
          return { done: 'paused' };
        },
      }),
    );
    await new Promise((tick) => setTimeout(tick, 0));
    // the second finds the step in progress: it finishes it too (it may be the first's crash), but its completion loses
    const second = exactlyOnce(step());
    const secondOutcome = await second;
    release();
    const firstOutcome = await first;
    const announced = [firstOutcome, secondOutcome].filter((outcome) => outcome.by === 'this');
    expect(announced).toHaveLength(1);
    expect([firstOutcome.by, secondOutcome.by].sort()).toEqual(['other', 'this']);
  });

  it('two deliveries that both decide: the one whose begin loses neither performs nor announces', async () => {
    const { store, calls, step } = world();
    const racing = step({
      decide: async () => {
        calls.decide++;
        // the other delivery begins between this one's find and its begin
        if (calls.decide === 1) await store.begin('rule-1/run-1/campaign-1', { to: 'PAUSED' });
        return { intent: { to: 'PAUSED' } };
      },
    });
    expect(await exactlyOnce(racing)).toEqual({ by: 'busy', intent: { to: 'PAUSED' } });
    expect(calls.perform).toEqual([]);
  });

  it('nothing to do is not stored, unless another delivery did it meanwhile: then its result stands', async () => {
    const { store, step } = world();
    const nothing = step({ decide: async () => ({ nothing: { done: 'skipped' } }) });
    expect(await exactlyOnce(nothing)).toEqual({ by: 'nobody', result: { done: 'skipped' } });
    expect(store.records.size).toBe(0);
    const meanwhile = step({
      decide: async () => {
        await store.begin('rule-1/run-1/campaign-1', { to: 'PAUSED' });
        await store.complete('rule-1/run-1/campaign-1', { done: 'paused by the other' });
        return { nothing: { done: 'skipped' } };
      },
    });
    expect(await exactlyOnce(meanwhile)).toEqual({ by: 'other', intent: { to: 'PAUSED' }, result: { done: 'paused by the other' } });
  });
});
