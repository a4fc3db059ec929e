import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useClock, type Clock } from '../../shared/core/clock.ts';
import { PlatformAuthExpired, PlatformRateLimited, PlatformTimeout, PlatformUnavailable } from '../../shared/core/errors.ts';
import { callPlatform, fail, ok, refreshAuth, retry, type PlatformCall, type UpstreamResponse, type Verdict } from '../../shared/platforms/upstream.ts';
import { scriptedServer } from '../helpers/scripted-server.ts';

/** A clock that stands still but for the waits asked of it, which it records and skips. */
class RecordingClock implements Clock {
  time = Date.UTC(2030, 0, 1);
  waits: number[] = [];
  private readonly randomValue: number;

  constructor(randomValue: number) {
    this.randomValue = randomValue;
  }
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
  upstream.answers.length = 0;
  upstream.received.length = 0;
});

let upstream: Awaited<ReturnType<typeof scriptedServer>>;
beforeAll(async () => {
  upstream = await scriptedServer(() => ({ status: 200, body: { done: true } }));
});
afterAll(() => upstream.close());

/** A classifier in the platforms' shape: 200 ok, 429 retry after the named wait, 401 refresh, 503 retry, else fail. */
const classify = (response: UpstreamResponse): Verdict<unknown> => {
  if (response.status === 200) return ok(JSON.parse(response.text));
  if (response.status === 429) return retry(new PlatformRateLimited('searchads', 7), Number(response.headers.get('retry-after') ?? 0) * 1000);
  if (response.status === 401) return refreshAuth(new PlatformAuthExpired('searchads', 'reconnect'));
  if (response.status === 503) return retry(new PlatformUnavailable('searchads'));
  return fail(new PlatformUnavailable('searchads'));
};
const call = (overrides: Partial<PlatformCall<unknown>> = {}): PlatformCall<unknown> => ({
  platform: 'searchads',
  request: () => ({ url: `${upstream.url}/call`, init: { method: 'POST', body: '{}' }, logPath: '/call' }),
  classify,
  retrySafe: true,
  ...overrides,
});
const deadlineIn = (ms: number) => ({ deadline: fake.now() + ms });

describe('callPlatform: the one retry loop, waiting through the clock', () => {
  it('backs off with jitter from the clock, doubling the ceiling, and never really sleeps', async () => {
    install(new RecordingClock(0.5));
    upstream.answers.push({ status: 503 }, { status: 503 });
    const result = await callPlatform(deadlineIn(60_000), call({ policy: { maxAttempts: 3, baseDelayMs: 1_000, maxDelayMs: 10_000 } }));
    expect(result).toEqual({ done: true });
    expect(upstream.received).toHaveLength(3);
    expect(fake.waits).toEqual([500, 1_000]); // 0.5 × 1 s, 0.5 × 2 s
  });

  it('waits at least what the platform asked for', async () => {
    install(new RecordingClock(0));
    upstream.answers.push({ status: 429, headers: { 'retry-after': '7' } });
    await callPlatform(deadlineIn(60_000), call());
    expect(fake.waits).toEqual([7_000]);
  });

  it('gives up with the verdict’s error when the attempts or the deadline run out', async () => {
    install(new RecordingClock(0.99));
    upstream.answers.push(...Array.from({ length: 5 }, () => ({ status: 503 })));
    await expect(callPlatform(deadlineIn(60_000), call({ policy: { maxAttempts: 3, baseDelayMs: 10, maxDelayMs: 10 } }))).rejects.toBeInstanceOf(
      PlatformUnavailable,
    );
    expect(fake.waits).toHaveLength(2);
    expect(upstream.received).toHaveLength(3);

    fake.waits = [];
    upstream.answers.length = 0;
    upstream.answers.push({ status: 429, headers: { 'retry-after': '30' } });
    await expect(callPlatform(deadlineIn(10_000), call())).rejects.toBeInstanceOf(PlatformRateLimited);
    expect(fake.waits).toEqual([]); // a wait past the deadline is not started
  });

  it('refreshes the token once on refreshAuth, builds the request again, and gives up on a second refusal', async () => {
    install(new RecordingClock(0));
    let token = 'old';
    let refreshes = 0;
    const withToken = call({
      request: () => ({ url: `${upstream.url}/call`, init: { method: 'GET', headers: { authorization: `Bearer ${token}` } }, logPath: '/call' }),
      refreshAuth: async () => {
        refreshes++;
        token = 'new';
      },
    });
    upstream.answers.push({ status: 401 });
    await expect(callPlatform(deadlineIn(60_000), withToken)).resolves.toEqual({ done: true });
    expect(upstream.received.map((request) => request.headers.authorization)).toEqual(['Bearer old', 'Bearer new']);

    upstream.answers.push({ status: 401 }, { status: 401 });
    await expect(callPlatform(deadlineIn(60_000), withToken)).rejects.toBeInstanceOf(PlatformAuthExpired);
    expect(refreshes).toBe(2);
    await expect(
      (async () => {
        upstream.answers.push({ status: 401 });
        return callPlatform(deadlineIn(60_000), call());
      })(),
    ).rejects.toBeInstanceOf(PlatformAuthExpired); // nothing to refresh with
  });

  it('a lost answer is retried only when the call is safe to repeat; a spent deadline sends nothing', async () => {
    install(new RecordingClock(0));
    upstream.answers.push({ status: 0, hang: true });
    const before = process.env.UPSTREAM_TIMEOUT_MS;
    await expect(callPlatform({ deadline: fake.now() + 300 }, call({ retrySafe: false }))).rejects.toBeInstanceOf(PlatformTimeout);
    expect(upstream.received).toHaveLength(1);
    upstream.received.length = 0;
    await expect(callPlatform({ deadline: fake.now() - 1 }, call())).rejects.toBeInstanceOf(PlatformTimeout);
    expect(upstream.received).toHaveLength(0);
    expect(process.env.UPSTREAM_TIMEOUT_MS).toBe(before);
  });
});
