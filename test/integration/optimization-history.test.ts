import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { clock } from '../../shared/core/clock.ts';
import { call, newTenant, newUser } from '../helpers/api.ts';
import { stackNow } from '../helpers/sandbox.ts';

const entry = (timestamp: number, adId = 'ad-1') => ({
  adId,
  adSetId: 'adset-1',
  headlines: [{ newText: 'Fresh bread daily', oldText: 'Bread' }],
  primaryTexts: [{ newText: 'Baked at dawn', oldText: 'Baked' }],
  images: [{ url: 'https://cdn.example.com/a.jpg', width: 1080, height: 1080, id: 'img-1' }],
  timestamp,
});

const record = (userId: string, overrides: Record<string, unknown> = {}) => ({
  userId,
  campaignId: 'cmp-42',
  campaignName: 'Autumn sale',
  platform: 'social',
  optimizationStatus: 'ACTIVE',
  startDate: 1_760_000_000_000,
  entry: entry(1_760_000_100_000),
  ...overrides,
});

describe('optimization history', () => {
  it('appends one entry per call and stamps lastUpdate', async () => {
    const apiKey = await newTenant();
    const userId = await newUser(apiKey);
    const before = await stackNow();
    const first = await call('/optimize_me/record_campaign_optimization', record(userId), { apiKey });
    expect(first.status).toBe(200);
    const second = await call(
      '/optimize_me/record_campaign_optimization',
      record(userId, { optimizationStatus: 'PAUSED', campaignName: 'Autumn sale (v2)', entry: entry(1_760_000_050_000, 'ad-2') }),
      { apiKey },
    );
    expect(second.status).toBe(200);

    const history = await call('/optimize_me/get_campaign_optimization_history', { userId, campaignId: 'cmp-42' }, { apiKey });
    expect(history.status).toBe(200);
    const campaign = history.body.results.campaign;
    expect(campaign).toMatchObject({
      campaignId: 'cmp-42',
      campaignName: 'Autumn sale (v2)',
      startDate: 1_760_000_000_000,
      timestamp: 1_760_000_100_000, // the newest entry's, not the last recorded
      optimizationStatus: 'PAUSED',
      platform: 'social',
    });
    expect(campaign.history).toHaveLength(2);
    expect(campaign.history[0]).toEqual({ ...entry(1_760_000_100_000), lastUpdate: expect.any(Object) });
    expect(campaign.history[1].adId).toBe('ad-2');
    const after = await stackNow();
    for (const item of campaign.history) {
      expect(item.lastUpdate._seconds * 1000).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
      expect(item.lastUpdate._seconds * 1000).toBeLessThanOrEqual(after);
      expect(Number.isInteger(item.lastUpdate._nanoseconds)).toBe(true);
      expect(item.lastUpdate._nanoseconds).toBeLessThan(1e9);
    }
  });

  it('answers NOT_FOUND for a campaign never optimized', async () => {
    const apiKey = await newTenant();
    const userId = await newUser(apiKey);
    const response = await call('/optimize_me/get_campaign_optimization_history', { userId, campaignId: 'never' }, { apiKey });
    expect(response.status).toBe(404);
    expect(response.body).toEqual({
      success: false,
      results: { success: false, code: 'NOT_FOUND', error: 'This campaign has no optimization history.' },
    });
  });

  it('rejects an entry that does not have the record shape, storing nothing', async () => {
    const apiKey = await newTenant();
    const userId = await newUser(apiKey);
    const bad = record(userId, {
      startDate: clock.today(), // a date string where milliseconds belong
      entry: { ...entry(1), adId: '', images: [{ url: 'not a url', width: -1, height: 10, id: 'x' }], timestamp: 'yesterday' },
    });
    const response = await call('/optimize_me/record_campaign_optimization', bad, { apiKey });
    expect(response.status).toBe(400);
    const paths = response.body.results.details.map((detail: { path: string }) => detail.path).sort();
    expect(paths).toEqual(['entry.adId', 'entry.images.0.url', 'entry.images.0.width', 'entry.timestamp', 'startDate']);
    const history = await call('/optimize_me/get_campaign_optimization_history', { userId, campaignId: 'cmp-42' }, { apiKey });
    expect(history.status).toBe(404);
  });

  it('records once for a retried Idempotency-Key', async () => {
    const apiKey = await newTenant();
    const userId = await newUser(apiKey);
    const headers = { 'idempotency-key': randomUUID() };
    const first = await call('/optimize_me/record_campaign_optimization', record(userId), { apiKey, headers });
    const retry = await call('/optimize_me/record_campaign_optimization', record(userId), { apiKey, headers });
    expect(retry.body).toEqual(first.body);
    const history = await call('/optimize_me/get_campaign_optimization_history', { userId, campaignId: 'cmp-42' }, { apiKey });
    expect(history.body.results.campaign.history).toHaveLength(1);
  });
});

describe('history that storage can hold', () => {
  /** an entry of about `kilobytes` KB of JSON */
  const bigEntry = (kilobytes: number, timestamp: number) => ({
    ...entry(timestamp, `ad-${timestamp}`),
    headlines: Array.from({ length: Math.ceil(kilobytes / 10) }, () => ({ newText: 'n'.repeat(5000), oldText: 'o'.repeat(5000) })),
  });
  const history = (apiKey: string, userId: string, pagination?: string) =>
    call('/optimize_me/get_campaign_optimization_history', { userId, campaignId: 'cmp-42', ...(pagination ? { pagination } : {}) }, { apiKey });

  it('an entry too large to store → 400 naming it, and the campaign is left as it was', async () => {
    const apiKey = await newTenant();
    const userId = await newUser(apiKey);
    const tooLarge = record(userId, { campaignName: 'Renamed', optimizationStatus: 'PAUSED', entry: bigEntry(400, 1_760_000_200_000) });
    // a campaign never recorded gets no empty record
    const refusedFirst = await call('/optimize_me/record_campaign_optimization', tooLarge, { apiKey });
    expect(refusedFirst.status).toBe(400);
    expect(refusedFirst.body.results.details).toEqual([{ path: 'entry', message: expect.stringContaining('at most 300 KB') }]);
    expect((await history(apiKey, userId)).status).toBe(404);

    expect((await call('/optimize_me/record_campaign_optimization', record(userId), { apiKey })).status).toBe(200);
    const refused = await call('/optimize_me/record_campaign_optimization', tooLarge, { apiKey });
    expect(refused.status).toBe(400);
    const after = (await history(apiKey, userId)).body.results.campaign;
    expect(after).toMatchObject({ campaignName: 'Autumn sale', optimizationStatus: 'ACTIVE', timestamp: 1_760_000_100_000 });
    expect(after.history).toHaveLength(1);
  });

  it('grows without bound and is read in pages that fit an answer, newest page first', async () => {
    const apiKey = await newTenant();
    const userId = await newUser(apiKey);
    for (let index = 0; index < 17; index++) {
      const response = await call('/optimize_me/record_campaign_optimization', record(userId, { entry: bigEntry(290, 1_760_000_000_000 + index) }), { apiKey });
      expect(response.status).toBe(200);
    }
    const first = await history(apiKey, userId);
    expect(first.status).toBe(200);
    expect(first.text.length).toBeLessThan(5 * 1024 * 1024);
    const newest = first.body.results.campaign.history.map((item: { timestamp: number }) => item.timestamp - 1_760_000_000_000);
    expect(newest.length).toBeLessThan(17);
    expect(newest.at(-1)).toBe(16);
    expect(first.body.results.campaign.timestamp).toBe(1_760_000_000_016);
    expect(first.body.results.paging.next).toEqual(expect.any(String));

    const second = await history(apiKey, userId, first.body.results.paging.next);
    const older = second.body.results.campaign.history.map((item: { timestamp: number }) => item.timestamp - 1_760_000_000_000);
    expect([...older, ...newest]).toEqual(Array.from({ length: 17 }, (_, index) => index));
    expect(second.body.results.paging).toEqual({});

    const forged = await history(apiKey, userId, Buffer.from('{"before":"META"}').toString('base64url'));
    expect(forged.status).toBe(400);
    expect(forged.body.results.details).toEqual([{ path: 'pagination', message: 'is not a cursor this operation gave' }]);
  });

  it('concurrent appends are all kept, each once', async () => {
    const apiKey = await newTenant();
    const userId = await newUser(apiKey);
    const responses = await Promise.all(
      Array.from({ length: 4 }, (_, index) =>
        call('/optimize_me/record_campaign_optimization', record(userId, { entry: entry(1_760_000_000_000 + index, `ad-${index}`) }), { apiKey }),
      ),
    );
    for (const response of responses) expect(response.status).toBe(200);
    const stored = (await history(apiKey, userId)).body.results.campaign;
    expect(stored.history.map((item: { adId: string }) => item.adId).sort()).toEqual(['ad-0', 'ad-1', 'ad-2', 'ad-3']);
    expect(stored.timestamp).toBe(1_760_000_000_003);
  });
});

describe('tenant isolation', () => {
  it('keeps each tenant to its own users and history', async () => {
    const keyA = await newTenant();
    const keyB = await newTenant();
    await call('/users/create_user', { userId: 'shared-name', connections: { searchads: { refreshToken: 'a', customerId: '1111111111' } } }, { apiKey: keyA });
    await call('/optimize_me/record_campaign_optimization', record('shared-name'), { apiKey: keyA });

    // B cannot see A's user, and gets the same answer as for a user that exists nowhere
    const crossProfile = await call('/users/get_profile', { userId: 'shared-name' }, { apiKey: keyB });
    const nowhere = await call('/users/get_profile', { userId: 'nobody-anywhere' }, { apiKey: keyB });
    expect(crossProfile.status).toBe(404);
    expect(crossProfile.body).toEqual(nowhere.body);
    expect(crossProfile.body.results.code).toBe('USER_NOT_FOUND');

    const crossHistory = await call('/optimize_me/get_campaign_optimization_history', { userId: 'shared-name', campaignId: 'cmp-42' }, { apiKey: keyB });
    expect(crossHistory.status).toBe(404);
    expect(crossHistory.body.results.code).toBe('USER_NOT_FOUND');
    const crossRecord = await call('/optimize_me/record_campaign_optimization', record('shared-name'), { apiKey: keyB });
    expect(crossRecord.status).toBe(404);

    // B may use the same userId for its own user, which stays separate
    await call('/users/create_user', { userId: 'shared-name' }, { apiKey: keyB });
    const ownHistory = await call('/optimize_me/get_campaign_optimization_history', { userId: 'shared-name', campaignId: 'cmp-42' }, { apiKey: keyB });
    expect(ownHistory.status).toBe(404);
    expect(ownHistory.body.results.code).toBe('NOT_FOUND');
    const profileA = await call('/users/get_profile', { userId: 'shared-name' }, { apiKey: keyA });
    expect(profileA.body.results.user.connections.searchads.customerId).toBe('1111111111');
    const historyA = await call('/optimize_me/get_campaign_optimization_history', { userId: 'shared-name', campaignId: 'cmp-42' }, { apiKey: keyA });
    expect(historyA.body.results.campaign.history).toHaveLength(1);
  });
});
