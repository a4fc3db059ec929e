/**
 * One exactly-once step (the shape of Powertools' idempotency record): a step is stored in progress
 * with what it set out to do (its intent) before it acts, and completed with its typed result after.
 * A delivery that finds the step completed reuses its result; one that finds it in progress (a crash,
 * or a delivery handed back) finishes it with the stored intent, so the step is decided once and
 * done once; of deliveries racing, the one whose completion is stored first is the one that
 * announces it. Rule actions are such steps; launches and media chunks will be. The store is a port:
 * DynamoDB items in the functions, a Map in unit tests.
 */
export type StepRecord<Intent, Result> = { status: 'in_progress'; intent: Intent } | { status: 'completed'; intent: Intent; result: Result };

export interface StepStore<Key, Intent, Result> {
  find(key: Key): Promise<StepRecord<Intent, Result> | undefined>;
  /** stores the step in progress; false when it is stored already (another delivery began it) */
  begin(key: Key, intent: Intent): Promise<boolean>;
  /** stores its result; false when it is completed already (another delivery finished first) */
  complete(key: Key, result: Result): Promise<boolean>;
}

export interface Step<Key, Intent, Result> {
  store: StepStore<Key, Intent, Result>;
  key: Key;
  /** what to do, from the world as it is now: an intent, or a result that needs no step (nothing to do) */
  decide(): Promise<{ intent: Intent } | { nothing: Result }>;
  /** does the intent; after a crash it is called again with the stored intent (`resumed`), so it reads back before it writes */
  perform(intent: Intent, resumed: boolean): Promise<Result>;
}

export type StepOutcome<Intent, Result> =
  /** this delivery completed the step: it, and only it, announces the result */
  | { by: 'this'; intent: Intent; result: Result }
  /** another delivery completed it, before or meanwhile: its result stands */
  | { by: 'other'; intent: Intent; result: Result }
  /** another delivery holds it in progress right now */
  | { by: 'busy'; intent?: Intent }
  /** nothing to do: no step was stored */
  | { by: 'nobody'; result: Result };

async function settled<Key, Intent, Result>(store: StepStore<Key, Intent, Result>, key: Key): Promise<StepOutcome<Intent, Result>> {
  const found = await store.find(key);
  if (found?.status === 'completed') return { by: 'other', intent: found.intent, result: found.result };
  return found ? { by: 'busy', intent: found.intent } : { by: 'busy' };
}

export async function exactlyOnce<Key, Intent, Result>(step: Step<Key, Intent, Result>): Promise<StepOutcome<Intent, Result>> {
  const { store, key } = step;
  const found = await store.find(key);
  if (found?.status === 'completed') return { by: 'other', intent: found.intent, result: found.result };
  let intent: Intent;
  if (found) intent = found.intent;
  else {
    const decided = await step.decide();
    if ('nothing' in decided) {
      // nothing to do now may be because another delivery of the same step has just done it
      const meanwhile = await store.find(key);
      return meanwhile ? settled(store, key) : { by: 'nobody', result: decided.nothing };
    }
    if (!(await store.begin(key, decided.intent))) return settled(store, key);
    intent = decided.intent;
  }
  const result = await step.perform(intent, found !== undefined);
  return (await store.complete(key, result)) ? { by: 'this', intent, result } : settled(store, key);
}
