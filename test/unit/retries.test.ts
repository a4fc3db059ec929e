import { afterEach, describe, expect, it } from 'vitest';
import { useClock, type Clock } from '../../shared/clock.ts';
import { PlatformRateLimited, PlatformUnavailable } from '../../shared/errors.ts';
import { TransientFailure, withRetries } from '../../shared/platforms/upstream.ts';

/** A clock that stands still but for the waits asked of it, which it records and skips. */
class RecordingClock implements Clock {
  time = Date.UTC(2030, 0, 1);
  waits: number[] = [];
  constructor(private readonly randomValue: number) {}
  now = () => this.time;
  random = () => this.randomValue;
  sleep = async (ms: number) => {
    this.waits.push(ms);
    this.time += ms;
  };
}

let fake: RecordingClock;
let previous: Clock | undefined;
const install = (recording: RecordingClock) => {
  fake = recording;
  previous ??= useClock(recording);
};
afterEach(() => {
  if (previous) useClock(previous);
  previous = undefined;
});

const failing = (times: number, failure: () => TransientFailure) => {
  let calls = 0;
  return async () => {
    calls++;
    if (calls <= times) throw failure();
    return `ok after ${calls}`;
  };
};

describe('withRetries waits through the clock', () => {
  it('backs off with jitter from the clock, doubling the ceiling, and never really sleeps', async () => {
    install(new RecordingClock(0.5));
    const result = await withRetries({ deadline: fake.now() + 60_000 }, failing(2, () => new TransientFailure(new PlatformUnavailable('social'))), {
      maxAttempts: 3,
      baseDelayMs: 1_000,
      maxDelayMs: 10_000,
    });
    expect(result).toBe('ok after 3');
    expect(fake.waits).toEqual([500, 1_000]); // 0.5 × 1 s, 0.5 × 2 s
  });

  it('waits at least what the platform asked for', async () => {
    install(new RecordingClock(0));
    await withRetries({ deadline: fake.now() + 60_000 }, failing(1, () => new TransientFailure(new PlatformRateLimited('searchads', 7), 7_000)));
    expect(fake.waits).toEqual([7_000]);
  });

  it('gives up with the final error when the attempts or the deadline run out', async () => {
    install(new RecordingClock(0.99));
    const unavailable = () => new TransientFailure(new PlatformUnavailable('professional'));
    await expect(withRetries({ deadline: fake.now() + 60_000 }, failing(5, unavailable), { maxAttempts: 3, baseDelayMs: 10, maxDelayMs: 10 })).rejects.toBeInstanceOf(PlatformUnavailable);
    expect(fake.waits).toHaveLength(2);

    fake.waits = [];
    const rateLimited = () => new TransientFailure(new PlatformRateLimited('social', 30), 30_000);
    await expect(withRetries({ deadline: fake.now() + 10_000 }, failing(1, rateLimited))).rejects.toBeInstanceOf(PlatformRateLimited);
    expect(fake.waits).toEqual([]); // a wait past the deadline is not started
  });
});
