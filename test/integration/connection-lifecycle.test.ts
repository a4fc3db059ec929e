import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConnectionLifecycle } from '../../functions/use-cases/connect/connection-lifecycle.ts';
import { clock } from '../../shared/core/clock.ts';
import { saveConnectionHealth } from '../../shared/store/user-writes.ts';
import { findUser } from '../../shared/store/users.ts';
import { findTenantIdByKeyHash, hashApiKey } from '../../shared/store/api-key-lookup.ts';
import { call, newTenant, newUser } from '../helpers/api.ts';
import { eventually } from '../helpers/eventually.ts';
import { upstreamRequestsWith } from '../helpers/sandbox.ts';
import { scriptedServer, webhookEvents } from '../helpers/scripted-server.ts';

/**
 * The connection lifecycle (docs/decisions.md "Connection health") run for one tenant against the sandboxes:
 * renewals, expiry checks and reconnect_required, each announced once.
 */
let receiver: Awaited<ReturnType<typeof scriptedServer>>;
let apiKey = '';
let tenantId = '';
beforeAll(async () => {
  receiver = await scriptedServer(() => ({ status: 200 }));
  apiKey = await newTenant();
  tenantId = (await findTenantIdByKeyHash(hashApiKey(apiKey))) as string;
  await call('/tenant/update_settings', { webhook: { url: `${receiver.url}/lifecycle` } }, { apiKey });
});
afterAll(() => receiver.close());

const marker = () => randomBytes(6).toString('hex');
const digits = () => String(1_000_000_000 + Math.floor(Math.random() * 8_999_999_999));
const connectionOf = async (userId: string, platform: string) =>
  (await call('/users/get_profile', { userId }, { apiKey })).body.results.user.connections[platform];
const daysFromNow = (iso: string) => (Date.parse(iso) - clock.now()) / 86_400_000;

describe('the connection lifecycle', () => {
  it('turns a revoked search-ads grant into reconnect_required with exactly one webhook event, and then leaves it alone', async () => {
    const refreshToken = `1//lifecycle-REVOKED-${marker()}`;
    const userId = await newUser(apiKey, { searchads: { refreshToken, customerId: digits() } });
    await runConnectionLifecycle({ tenantId });
    await runConnectionLifecycle({ tenantId });
    expect(await connectionOf(userId, 'searchads')).toMatchObject({ status: 'reconnect_required' });
    expect(await upstreamRequestsWith('searchads', encodeURIComponent(refreshToken))).toHaveLength(1); // refused once, never retried
    const events = await eventually(async () => {
      const found = webhookEvents(receiver.received).filter((event) => event.data.userId === userId);
      return found.length > 0 ? found : undefined;
    });
    expect(events).toEqual([
      { type: 'connection.reconnect_required', timestamp: expect.any(String), data: { userId, platform: 'searchads', status: 'reconnect_required' } },
    ]);
  });

  it('refreshes a working search-ads grant, then not again within the week', async () => {
    const refreshToken = `1//lifecycle-${marker()}`;
    const userId = await newUser(apiKey, { searchads: { refreshToken, customerId: digits() } });
    await runConnectionLifecycle({ tenantId });
    await runConnectionLifecycle({ tenantId });
    expect(await upstreamRequestsWith('searchads', encodeURIComponent(refreshToken))).toHaveLength(1);
    expect(await connectionOf(userId, 'searchads')).toEqual({
      customerId: expect.any(String),
      status: 'active',
      connectedAt: expect.any(String),
      connectedVia: 'token',
    });
  });

  it('learns a professional token’s expiry, and renews it 7 days before it runs out, storing the new token sealed', async () => {
    const refreshToken = `AQWlifecycle${marker()}`;
    const userId = await newUser(apiKey, { professional: { accessToken: `AQVlifecycle${marker()}`, refreshToken, adAccountId: '500000001' } });
    await runConnectionLifecycle({ tenantId });
    const learnt = await connectionOf(userId, 'professional');
    expect(learnt).toMatchObject({ status: 'active', expiresAt: expect.any(String) });
    expect(daysFromNow(learnt.expiresAt)).toBeGreaterThan(59);
    await runConnectionLifecycle({ tenantId }); // 60 days left: nothing to do
    expect(await upstreamRequestsWith('professional', refreshToken)).toHaveLength(1);

    // Arrange: the token now has six days left
    const user = await findUser(tenantId, userId);
    await saveConnectionHealth(user!, 'professional', { expiresAt: new Date(clock.now() + 6 * 86_400_000).toISOString() });
    await runConnectionLifecycle({ tenantId });
    const refreshes = await upstreamRequestsWith('professional', refreshToken);
    expect(refreshes).toHaveLength(2);
    expect(new URLSearchParams(refreshes[1]?.body).get('grant_type')).toBe('refresh_token');
    expect(daysFromNow((await connectionOf(userId, 'professional')).expiresAt)).toBeGreaterThan(59);
    const stored = JSON.stringify((await findUser(tenantId, userId))?.connections.professional);
    expect(stored).not.toContain('AQXrefreshed'); // the renewed token is sealed at rest
  });

  it('asks debug_token about social tokens: one running out within 7 days is expiring, a valid one active with its expiry, an invalid one reconnect_required', async () => {
    const soon = await newUser(apiKey, { social: { accessToken: `EAAlifecycle${marker()}EXPIRESIN3D`, adAccountId: 'act_284756109384756' } });
    const fine = await newUser(apiKey, { social: { accessToken: `EAAlifecycle${marker()}`, adAccountId: 'act_284756109384756' } });
    const gone = await newUser(apiKey, { social: { accessToken: `EAAlifecycle${marker()}REVOKED`, adAccountId: 'act_284756109384756' } });
    await runConnectionLifecycle({ tenantId });
    const expiring = await connectionOf(soon, 'social');
    expect(expiring).toMatchObject({ status: 'expiring', scopes: expect.arrayContaining(['ads_management', 'pages_manage_ads']) });
    expect(daysFromNow(expiring.expiresAt)).toBeGreaterThan(2.9);
    expect(daysFromNow(expiring.expiresAt)).toBeLessThan(3.1);
    expect(await connectionOf(fine, 'social')).toMatchObject({ status: 'active', expiresAt: expect.any(String) });
    expect(await connectionOf(gone, 'social')).toMatchObject({ status: 'reconnect_required' });
  });
});
