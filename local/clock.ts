import { AsyncLocalStorage } from 'node:async_hooks';
import { setTimeout as wait } from 'node:timers/promises';
import { useClock, type Clock } from '../shared/core/clock.ts';

/** One function run's view of the clock: its moves and skipped waits before the run began, and its own since. */
interface RunView {
  aheadBefore: number;
  own: number;
}

/**
 * The local stack's clock: the system's, moved by `offsetMs` (to try the service on another day, or by a
 * test), and, for the tests, with waits that pass at once by moving the clock forward instead of
 * sleeping, so a retry after 5 s takes no real time but everything that reads the clock sees the 5 s gone.
 * The emulators that keep the stack's time (the queues) follow its moves, not the waits it skipped: a
 * wait skipped in one request is not time passing for every message in flight.
 *
 * A function run (`asRun`: a request, a queue delivery, a stream batch, a schedule) sees its own skipped
 * waits and those before it began, not those of the runs beside it: in the cloud their waits overlap in
 * time, and a run's deadline (on this clock) would otherwise lose every other run's retry waits. A test's
 * move of the clock is alike: seen by the runs that begin after it, not by one in flight, whose deadline
 * would jump (a worker's 60 s gone at once, its lead read refused for want of time). The sandboxes,
 * outside any run, see every move and wait skipped, so a platform's rate-limit window has passed when a
 * run retries after it (docs/testing.md).
 */
export class LocalClock implements Clock {
  private offsetMs: number;
  private skippedMs = 0;
  private readonly instantSleeps: boolean;
  private readonly listeners = new Set<(offsetMs: number) => void>();
  private readonly runs = new AsyncLocalStorage<RunView>();

  constructor(options: { offsetMs?: number; instantSleeps?: boolean } = {}) {
    this.offsetMs = options.offsetMs ?? 0;
    this.instantSleeps = options.instantSleeps ?? false;
  }

  now(): number {
    const run = this.runs.getStore();
    return Date.now() + (run ? run.aheadBefore + run.own : this.offsetMs + this.skippedMs);
  }

  async sleep(ms: number): Promise<void> {
    if (!this.instantSleeps) return wait(ms);
    const skipped = Math.ceil(ms); // whole milliseconds, as the system clock gives
    this.skippedMs += skipped;
    const run = this.runs.getStore();
    if (run) run.own += skipped;
  }

  /** `invocation` (one function run) on its own view of the clock's moves and skipped waits, from now */
  asRun<T>(invocation: () => T): T {
    return this.runs.run({ aheadBefore: this.offsetMs + this.skippedMs, own: 0 }, invocation);
  }

  random(): number {
    return Math.random();
  }

  /** moves the clock forward: the stack's time (for the runs that begin after, and the run that moves it), and its queues' */
  advance(ms: number): void {
    this.offsetMs += Math.ceil(ms);
    const run = this.runs.getStore();
    if (run) run.own += Math.ceil(ms);
    for (const listener of this.listeners) listener(this.offsetMs);
  }

  /** how far the clock was moved from the system's (waits skipped aside), in milliseconds */
  offset(): number {
    return this.offsetMs;
  }

  /** `listener` hears the new offset whenever the clock is moved; the function returned stops it */
  onMoved(listener: (offsetMs: number) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/** `LOCAL_CLOCK_OFFSET_DAYS` (may be negative or fractional): the local stack runs that far from today. */
export function clockOffsetFromEnv(value = process.env.LOCAL_CLOCK_OFFSET_DAYS): number {
  if (value === undefined || value === '') return 0;
  const days = Number(value);
  if (!Number.isFinite(days)) throw new Error(`LOCAL_CLOCK_OFFSET_DAYS must be a number of days, not "${value}"`);
  return Math.round(days * 86_400_000);
}

let installed: LocalClock | undefined;

/** Makes `localClock` the clock of this process (the stack's functions, gateway and sandboxes). */
export function installLocalClock(localClock: LocalClock): void {
  installed = localClock;
  useClock(localClock);
}

/** One function run of the local stack, on the installed clock's view of it (LocalClock.asRun); as it is when none is installed. */
export function asFunctionRun<T>(invocation: () => T): T {
  return installed ? installed.asRun(invocation) : invocation();
}

/** The clock the local stack installed, for the sandboxes' clock control endpoint. */
export function installedLocalClock(): LocalClock | undefined {
  return installed;
}
