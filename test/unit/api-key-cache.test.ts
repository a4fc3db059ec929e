import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Clock, useClock, systemClock } from '../../shared/core/clock.ts';
import { apiKeyAuth, UNKNOWN_KEY_CACHE_MS } from '../../shared/http/middleware/api-key-auth.ts';
import { hashApiKey } from '../../shared/store/api-key-lookup.ts';

/** A container remembers a known key for API_KEY_CACHE_TTL_MS, an unknown one for at most a second. */
describe('the API key cache', () => {
  let now = 1_800_000_000_000;
  const clock: Clock = {
    now: () => now,
    sleep: async (ms) => {
      now += ms;
    },
    random: () => 0.5,
  };
  beforeEach(() => void useClock(clock));
  afterEach(() => void useClock(systemClock));

  const run = (auth: ReturnType<typeof apiKeyAuth>, key: string) =>
    (auth.before as (request: unknown) => Promise<void>)({ event: { headers: { 'x-api-key': key } }, context: {} });

  it('an unknown key made known a moment later works within a second; a known key is not looked up again', async () => {
    const known = new Map<string, { tenantId: string; keyId: string }>();
    let lookups = 0;
    const auth = apiKeyAuth({
      findApiKey: async (hash: string) => {
        lookups += 1;
        return known.get(hash);
      },
    });
    await expect(run(auth, 'ak_new_key_0000000001')).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    known.set(hashApiKey('ak_new_key_0000000001'), { tenantId: 't1', keyId: 'key_1' });
    await expect(run(auth, 'ak_new_key_0000000001')).rejects.toMatchObject({ code: 'UNAUTHORIZED' }); // still remembered as unknown
    now += UNKNOWN_KEY_CACHE_MS;
    await expect(run(auth, 'ak_new_key_0000000001')).resolves.toBeUndefined();
    expect(lookups).toBe(2);
    now += 5_000;
    await run(auth, 'ak_new_key_0000000001');
    expect(lookups).toBe(2);
  });
});
