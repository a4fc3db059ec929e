import { clock } from '../core/clock.ts';
import { saveConnectionHealth } from '../store/user-writes.ts';
import { openConnection, type User } from '../store/users.ts';
import { refreshGrant, rememberAccessToken, tokenEndpoint } from './oauth-token-client.ts';
import type { CallBudget } from './upstream.ts';

/**
 * The one way a connection's grant is renewed, whoever asks (a platform call refused with an expired
 * token, or the connection lifecycle): the refresh-token grant, then what it taught us stored at once
 * (the new access token where we keep one, when it expires, when it was renewed, the connection
 * active again), and the new access token cached for this process. docs/decisions.md "Connection health".
 */
export async function renewGrant(user: User, platform: 'searchads' | 'professional', budget: CallBudget): Promise<string> {
  const { refreshToken } = openConnection(user, platform);
  if (!refreshToken) throw new Error(`the ${platform} connection has no refresh token`);
  const endpoint = tokenEndpoint(platform);
  const issued = await refreshGrant(endpoint, refreshToken, budget);
  rememberAccessToken(endpoint, refreshToken, issued.accessToken, issued.expiresIn);
  const now = clock.now();
  const renewedAt = new Date(now).toISOString();
  if (platform === 'searchads') {
    // access tokens are minted from the refresh token by each process; only the grant's health is kept
    await saveConnectionHealth(user, platform, { status: 'active', lastRefreshedAt: renewedAt });
  } else {
    const expiresAt = new Date(now + issued.expiresIn * 1000).toISOString();
    await saveConnectionHealth(user, platform, { status: 'active', expiresAt, lastRefreshedAt: renewedAt }, { accessToken: issued.accessToken });
  }
  return issued.accessToken;
}
