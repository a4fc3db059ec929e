import { describe, expect, it } from 'vitest';
import { LocalClock } from '../../local/clock.ts';

/** how far `clock` reads ahead of the system clock, to the second (the test's own time aside) */
const ahead = (clock: LocalClock) => Math.round((clock.now() - Date.now()) / 1000);

describe('the local clock’s skipped waits', () => {
  it('a run sees its own skipped waits and those before it began, never those of a run beside it', async () => {
    const clock = new LocalClock({ instantSleeps: true });
    await clock.sleep(2_000);
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const seen: Record<string, number[]> = { waiting: [], retrying: [] };

    const waiting = clock.asRun(async () => {
      seen.waiting?.push(ahead(clock));
      await held; // while the run beside it skips its retry waits
      seen.waiting?.push(ahead(clock));
    });
    const retrying = clock.asRun(async () => {
      seen.retrying?.push(ahead(clock));
      await clock.sleep(5_000);
      await clock.sleep(30_000);
      seen.retrying?.push(ahead(clock));
    });
    await retrying;
    release();
    await waiting;

    expect(seen).toEqual({ waiting: [2, 2], retrying: [2, 37] });
    // outside any run (the sandboxes) every skipped wait has passed, and a run begun now starts from there
    expect(ahead(clock)).toBe(37);
    expect(clock.asRun(() => ahead(clock))).toBe(37);
  });

  it('a move of the clock is seen by the run that made it and the runs after it, never by a run in flight', async () => {
    const clock = new LocalClock({ instantSleeps: true });
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const seen: number[] = [];
    // a worker mid-run when a test moves the clock: its remaining time does not jump to nothing
    const inFlight = clock.asRun(async () => {
      seen.push(ahead(clock));
      await held;
      seen.push(ahead(clock));
    });
    clock.advance(60_000); // a test, outside any run
    expect(ahead(clock)).toBe(60);
    await clock.asRun(async () => {
      await clock.sleep(1_000);
      clock.advance(60_000);
      expect(ahead(clock)).toBe(121);
    });
    release();
    await inFlight;
    expect(seen).toEqual([0, 0]);
    expect(ahead(clock)).toBe(121);
    expect(clock.asRun(() => ahead(clock))).toBe(121);
  });

  it('a clock that really waits is the same in a run as outside', async () => {
    const clock = new LocalClock({ offsetMs: 3_600_000 });
    await clock.asRun(() => clock.sleep(1));
    expect(clock.asRun(() => ahead(clock))).toBe(3_600);
    expect(ahead(clock)).toBe(3_600);
  });
});
