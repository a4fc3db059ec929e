import { setTimeout as wait } from 'node:timers/promises';

/**
 * The one source of "now" for the service and its sandboxes: date validation, statistics windows,
 * token and cache expiry, retry waits and their jitter. Functions run on the system clock; the local
 * stack and the tests install another one (a clock set ahead, or one whose waits pass at once).
 * Durations of I/O (access-log timings) are measured with performance.now(), not with this.
 */
export interface Clock {
  /** epoch milliseconds */
  now(): number;
  /** waits `ms` of this clock's time */
  sleep(ms: number): Promise<void>;
  /** uniform in [0, 1): the source of retry jitter */
  random(): number;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: async (ms) => {
    await wait(ms);
  },
  random: () => Math.random(),
};

let current: Clock = systemClock;

/** Installs the clock every later call reads (the local stack and tests do; functions never); returns the one it replaced. */
export function useClock(next: Clock): Clock {
  const replaced = current;
  current = next;
  return replaced;
}

const DAY_MS = 86_400_000;

/** A UTC calendar date `YYYY-MM-DD`, `offsetDays` from the day of `epochMs`. */
export function isoDate(epochMs: number, offsetDays = 0): string {
  return new Date(epochMs + offsetDays * DAY_MS).toISOString().slice(0, 10);
}

export const clock = {
  now: (): number => current.now(),
  date: (): Date => new Date(current.now()),
  /** today (UTC) as `YYYY-MM-DD`, or the day `offsetDays` away */
  today: (offsetDays = 0): string => isoDate(current.now(), offsetDays),
  sleep: (ms: number): Promise<void> => current.sleep(Math.max(0, ms)),
  /** a random wait in [0, maxMs) */
  jitter: (maxMs: number): number => current.random() * maxMs,
};
