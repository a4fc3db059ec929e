import { setTimeout as wait } from 'node:timers/promises';

/**
 * Polls `check` until it returns a value (not undefined) or `timeoutMs` passes: for work another
 * process does in its own time (a queue consumer), never to wait out a retry delay.
 */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 15_000, what = 'the condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await wait(100);
  }
}
