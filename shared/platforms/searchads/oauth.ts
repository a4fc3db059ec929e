import { createHash } from 'node:crypto';
import { clock } from '../../clock.ts';
import { config } from '../../config.ts';
import { PlatformAuthExpired, PlatformUnavailable } from '../../errors.ts';
import { TransientFailure, upstreamFetch, withRetries, type CallBudget } from '../upstream.ts';

/**
 * Access tokens from the user's refresh token (contract §1.1), cached per container until a minute
 * before they expire. Concurrent calls share one refresh: the pending request is cached, not
 * only its result.
 */
const RENEW_BEFORE_MS = 60_000;
const tokens = new Map<string, { token: Promise<string>; value?: string; expiresAt: number }>();
const keyOf = (refreshToken: string) => createHash('sha256').update(refreshToken).digest('hex');

async function requestToken(refreshToken: string, budget: CallBudget): Promise<{ token: string; expiresIn: number }> {
  const { SEARCHADS_OAUTH_URL, SEARCHADS_CLIENT_ID, SEARCHADS_CLIENT_SECRET } = config();
  const body = new URLSearchParams({
    grant_type: 'refresh_token',
    client_id: SEARCHADS_CLIENT_ID ?? '',
    client_secret: SEARCHADS_CLIENT_SECRET ?? '',
    refresh_token: refreshToken,
  }).toString();
  return withRetries(budget, async () => {
    const response = await upstreamFetch(
      'searchads',
      SEARCHADS_OAUTH_URL,
      { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body },
      budget,
      { retrySafe: true, logPath: new URL(SEARCHADS_OAUTH_URL).pathname },
    );
    let parsed: { access_token?: string; expires_in?: number; error?: string } = {};
    try {
      parsed = JSON.parse(response.text) as typeof parsed;
    } catch {
      throw new TransientFailure(new PlatformUnavailable('searchads'));
    }
    if (response.status === 200 && parsed.access_token) return { token: parsed.access_token, expiresIn: Number(parsed.expires_in) || 3600 };
    if (response.status >= 500) throw new TransientFailure(new PlatformUnavailable('searchads'));
    // invalid_grant: expired or revoked; invalid_client: our own credentials are wrong
    if (parsed.error === 'invalid_grant') {
      throw new PlatformAuthExpired('searchads', 'The user’s search-ads authorisation has expired or was revoked; reconnect the account with create_user.');
    }
    throw new PlatformUnavailable('searchads', new Error(`token endpoint answered ${response.status} ${parsed.error ?? ''}`));
  });
}

export async function accessToken(refreshToken: string, budget: CallBudget): Promise<string> {
  const key = keyOf(refreshToken);
  const cached = tokens.get(key);
  if (cached && cached.expiresAt - RENEW_BEFORE_MS > clock.now()) return cached.token;
  const pending = requestToken(refreshToken, budget);
  const entry: { token: Promise<string>; value?: string; expiresAt: number } = {
    token: pending.then((result) => result.token),
    expiresAt: Number.POSITIVE_INFINITY,
  };
  entry.token.catch(() => undefined); // a failed refresh reaches each waiter, not the process
  tokens.set(key, entry);
  try {
    const { token, expiresIn } = await pending;
    entry.value = token;
    entry.expiresAt = clock.now() + expiresIn * 1000;
  } catch (error) {
    if (tokens.get(key) === entry) tokens.delete(key);
    throw error;
  }
  return entry.token;
}

/** Forgets a token the platform refused (401), so the next call refreshes. */
export function forgetAccessToken(refreshToken: string, refused: string): void {
  const key = keyOf(refreshToken);
  if (tokens.get(key)?.value === refused) tokens.delete(key);
}
