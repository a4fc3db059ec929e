import { clock } from '../../../shared/core/clock.ts';
import { PlatformTimeout, PlatformUnavailable } from '../../../shared/core/errors.ts';
import { exactlyOnce, type StepStore } from '../../../shared/core/exactly-once.ts';
import { type JobRun, LeaseLost, Pause } from './job-run.ts';

/**
 * The three shapes of a job's steps (docs/architecture.md, "The job engine"). Each keeps its step
 * record in the job's checkpoint, saved by the run that holds the job's lease (the only writer):
 *
 * - create once: a platform object made exactly once (`exactlyOnce`): the intent (when it was first
 *   sent) saved before the create, its id after; a lost answer, or a run that finds the intent without
 *   an id, reads back before it sends anything again. A launch's creates add an undo (launch-engine.ts).
 * - poll until: a platform's processing or a request's status, read on queue delays (the run pauses,
 *   it never sleeps), counted in the checkpoint, given up after a bound.
 * - send in order: chunks, parts or batches, each acknowledgement saved before the next is sent; the
 *   one in flight at a crash is sent again at its position.
 */

/** The answer never came: the platform may or may not have done it. */
export const lostAnswer = (error: unknown) => error instanceof PlatformTimeout || error instanceof PlatformUnavailable;

/** A create's step record, as the checkpoint keeps it; `forget` drops an intent the platform refused (nothing was made). */
export type CreateStore<Id> = StepStore<string, { sentAt: number }, Id> & { forget(key: string): Promise<void> };

/**
 * A create's step kept in two fields of a job's checkpoint: when it was sent, and the id it made; each
 * change saved with the job at once.
 */
export function checkpointCreateStore<Checkpoint extends object>(
  run: JobRun,
  checkpoint: Checkpoint,
  fields: { sentAt: keyof Checkpoint & string; id: keyof Checkpoint & string },
): CreateStore<string> {
  const kept = checkpoint as Record<string, unknown>;
  const save = async (changes: Record<string, unknown>) => {
    Object.assign(kept, changes);
    await run.save();
    return true;
  };
  return {
    find: async () => {
      const [sentAt, id] = [kept[fields.sentAt] as number | undefined, kept[fields.id] as string | undefined];
      if (id !== undefined) return { status: 'completed', intent: { sentAt: sentAt ?? 0 }, result: id };
      return sentAt !== undefined ? { status: 'in_progress', intent: { sentAt } } : undefined;
    },
    begin: (_key, { sentAt }) => save({ [fields.sentAt]: sentAt }),
    complete: (_key, id) => save({ [fields.id]: id }),
    forget: async () => {
      await save({ [fields.sentAt]: undefined });
    },
  };
}

export interface CreateOnce<Id> {
  store: CreateStore<Id>;
  key: string;
  send(): Promise<Id>;
  /** the object this create made, looking at what was made since `sinceMs`; undefined: none */
  readBack(sinceMs: number): Promise<Id | undefined>;
}

export async function createOnce<Id>({ store, key, send, readBack }: CreateOnce<Id>): Promise<Id> {
  const outcome = await exactlyOnce<string, { sentAt: number }, Id>({
    store,
    key,
    decide: async () => ({ intent: { sentAt: clock.now() } }),
    perform: async ({ sentAt }, resumed) => {
      if (resumed) {
        const made = await readBack(sentAt);
        if (made !== undefined) return made;
      }
      try {
        return await send();
      } catch (error) {
        if (!lostAnswer(error)) {
          await store.forget(key); // refused: nothing was made, and the next send is a first one
          throw error;
        }
        const made = await readBack(sentAt);
        if (made !== undefined) return made;
        throw error; // the next run reads back again before it sends
      }
    },
  });
  if (outcome.by === 'busy') throw new LeaseLost(); // only a run that lost the job's lease meets another's step
  return outcome.result;
}

export type PollAnswer<Done> = { done: Done } | { waiting: true };

export interface PollUntil<Done, Key extends string> {
  /** where the polls so far are counted (a field of the checkpoint) */
  count: Partial<Record<Key, number>>;
  key: Key;
  read(): Promise<PollAnswer<Done>>;
  /** the waits between polls, in seconds: a list whose last one repeats, or the wait after the n-th poll (growing) */
  delays: readonly number[] | ((polls: number) => number);
  /** the first poll waits until `seconds` after `since` (epoch ms): the platform's processing takes a moment */
  first?: { since: number; seconds: number };
  /** given up after this many polls, or once `deadline` (epoch ms) has passed */
  maxPolls?: number;
  deadline?: number;
  /** a poll given up: the error it fails with, or what it ends with instead (`{done}`) */
  tooLong(): Error | { done: Done };
}

/** One poll per run: done, or counted, saved and paused for the next wait (a read's refusal is thrown as it is). */
export async function pollUntil<Done, Key extends string>(run: JobRun, poll: PollUntil<Done, Key>): Promise<Done> {
  const made = poll.count[poll.key] ?? 0;
  if (made === 0 && poll.first && clock.now() < poll.first.since + poll.first.seconds * 1000)
    throw new Pause(Math.ceil((poll.first.since + poll.first.seconds * 1000 - clock.now()) / 1000));
  run.checkTime();
  const answer = await poll.read();
  if ('done' in answer) return answer.done;
  const polls = made + 1;
  poll.count[poll.key] = polls;
  if ((poll.maxPolls !== undefined && polls > poll.maxPolls) || (poll.deadline !== undefined && clock.now() >= poll.deadline)) {
    const given = poll.tooLong();
    if (given instanceof Error) throw given;
    await run.save();
    return given.done;
  }
  await run.save();
  const { delays } = poll;
  throw new Pause(typeof delays === 'function' ? delays(polls) : (delays[Math.min(polls, delays.length) - 1] ?? 0));
}

/**
 * N requests followed to their ends on one count of polls (a platform that answers each request's
 * status apart): each poll reads every one not final yet (`read` answers whether it now is, and keeps
 * what it learned in the checkpoint), until none is left.
 */
export interface PollEachUntil<Item, Key extends string> extends Omit<PollUntil<void, Key>, 'read' | 'tooLong'> {
  items: readonly Item[];
  final(item: Item): boolean;
  read(item: Item): Promise<void>;
  /** the polls given up: what becomes of the requests still not final */
  giveUp(left: readonly Item[]): void;
}

export function pollEachUntil<Item, Key extends string>(run: JobRun, { items, final, read, giveUp, ...poll }: PollEachUntil<Item, Key>): Promise<void> {
  const left = () => items.filter((item) => !final(item));
  if (left().length === 0) return Promise.resolve();
  return pollUntil<void, Key>(run, {
    ...poll,
    read: async () => {
      for (const item of left()) {
        run.checkTime();
        await read(item);
      }
      return left().length === 0 ? { done: undefined } : { waiting: true };
    },
    tooLong: () => {
      giveUp(left());
      return { done: undefined };
    },
  });
}

export interface SendInOrder<Item, Ack> {
  /** the next item not yet acknowledged, from the checkpoint (or read on from a file); undefined when all are */
  next(): Item | undefined | Promise<Item | undefined>;
  send(item: Item): Promise<Ack>;
  /** moves the checkpoint past the item (saved before the next is sent) */
  acknowledge(item: Item, ack: Ack): void;
}

export async function sendInOrder<Item, Ack>(run: JobRun, { next, send, acknowledge }: SendInOrder<Item, Ack>): Promise<void> {
  for (let item = await next(); item !== undefined; item = await next()) {
    run.checkTime();
    acknowledge(item, await send(item));
    await run.save();
  }
}
