import { createHash } from 'node:crypto';
import { clock } from '../core/clock.ts';
import { config } from '../core/config.ts';
import { PlatformAuthExpired, PlatformUnavailable, type Platform } from '../core/errors.ts';
import { log } from '../core/logger.ts';
import { callPlatform, fail, ok, parseJson, retry, type CallBudget, type UpstreamResponse, type Verdict } from './upstream.ts';

/**
 * The one OAuth 2.0 token client of every platform (RFC 6749 §6 refresh; the connect links' code
 * exchange will use the same endpoint handling): retried like any safe call, `invalid_grant` is the
 * user's (PLATFORM_AUTH_EXPIRED: reconnect), `invalid_client` and the like are ours (502, logged as
 * an operator error, never blamed on the user). Access tokens are cached per container until a
 * minute before they expire, and concurrent refreshes of one token share one request.
 */
export interface TokenEndpoint {
  platform: Platform;
  url: string;
  clientId: string | undefined;
  clientSecret: string | undefined;
  /** what the user is told to do when the grant is gone */
  reconnectHint: string;
}

export interface IssuedToken {
  accessToken: string;
  /** seconds */
  expiresIn: number;
}

/** Our app's token endpoint on a platform that refreshes grants (docs/platforms.md, "What every connect round trip shares"). */
export function tokenEndpoint(platform: 'searchads' | 'professional'): TokenEndpoint {
  const settings = config();
  const [url, clientId, clientSecret] =
    platform === 'searchads'
      ? [settings.SEARCHADS_OAUTH_URL, settings.SEARCHADS_CLIENT_ID, settings.SEARCHADS_CLIENT_SECRET]
      : [settings.PROFESSIONAL_OAUTH_URL, settings.PROFESSIONAL_CLIENT_ID, settings.PROFESSIONAL_CLIENT_SECRET];
  return { platform, url, clientId, clientSecret, reconnectHint: 'reconnect the account with a connect link (/auth/create_link).' };
}

const RENEW_BEFORE_MS = 60_000;
const DEFAULT_LIFETIME_SECONDS = 3600;

/** The token endpoint's answer (RFC 6749 §5.1, §5.2): whose problem a refusal is decides its code. */
export function classifyTokenResponse(endpoint: TokenEndpoint, response: UpstreamResponse): Verdict<IssuedToken> {
  const parsed = parseJson(response.text) as { access_token?: string; expires_in?: number; error?: string } | undefined;
  if (parsed === undefined || response.status >= 500 || response.status === 429) return retry(new PlatformUnavailable(endpoint.platform));
  if (response.status === 200 && parsed.access_token) {
    return ok({ accessToken: parsed.access_token, expiresIn: Number(parsed.expires_in) || DEFAULT_LIFETIME_SECONDS });
  }
  if (parsed.error === 'invalid_grant') {
    return fail(
      new PlatformAuthExpired(endpoint.platform, `The user’s ${endpoint.platform} authorisation has expired or was revoked; ${endpoint.reconnectHint}`),
    );
  }
  log().error('the platform refused our app credentials', { platform: endpoint.platform, status: response.status, error: parsed.error });
  return fail(new PlatformUnavailable(endpoint.platform, new Error(`token endpoint answered ${response.status} ${parsed.error ?? ''}`)));
}

/** One token-endpoint request: our client credentials and the grant's fields, form-encoded in the body (never the URL). */
function postGrant<T>(
  endpoint: TokenEndpoint,
  { grant_type, ...fields }: { grant_type: string } & Record<string, string>,
  budget: CallBudget,
  classify: (response: UpstreamResponse) => Verdict<T>,
  retrySafe: boolean,
): Promise<T> {
  const body = new URLSearchParams({ grant_type, client_id: endpoint.clientId ?? '', client_secret: endpoint.clientSecret ?? '', ...fields }).toString();
  return callPlatform(budget, {
    platform: endpoint.platform,
    request: () => ({
      url: endpoint.url,
      init: { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body },
      logPath: new URL(endpoint.url).pathname,
    }),
    classify,
    retrySafe,
    secrets: () => [endpoint.clientSecret, ...Object.values(fields)],
  });
}

export function refreshGrant(endpoint: TokenEndpoint, refreshToken: string, budget: CallBudget): Promise<IssuedToken> {
  return postGrant(
    endpoint,
    { grant_type: 'refresh_token', refresh_token: refreshToken },
    budget,
    (response) => classifyTokenResponse(endpoint, response),
    true,
  );
}

/** What an authorization-code exchange issues (RFC 6749 §4.1.4). */
export interface IssuedGrant extends IssuedToken {
  refreshToken?: string;
  /** seconds, where the platform limits the refresh token's life */
  refreshExpiresIn?: number;
  /** as granted (space- or comma-separated upstream) */
  scopes: string[];
  /** OpenID Connect id token, when `openid` was asked */
  idToken?: string;
}

/**
 * An authorization-code exchange's answer. A code is single-use, so nothing is sent twice: a 5xx is
 * the platform's failure for the person to try again; a refused code (used, expired, another
 * redirect URI or PKCE verifier: `invalid_grant`, or LinkedIn's `invalid_request` "Unable to retrieve
 * access token") means going through consent again; `invalid_client` and a redirect URI the platform
 * does not know are ours, logged as operator errors.
 */
export function classifyCodeExchange(endpoint: TokenEndpoint, response: UpstreamResponse): Verdict<IssuedGrant> {
  const parsed = parseJson(response.text) as
    | {
        access_token?: string;
        expires_in?: number;
        refresh_token?: string;
        refresh_token_expires_in?: number;
        scope?: string;
        id_token?: string;
        error?: string;
        error_description?: string;
      }
    | undefined;
  if (response.status === 200 && parsed?.access_token) {
    return ok({
      accessToken: parsed.access_token,
      expiresIn: Number(parsed.expires_in) || DEFAULT_LIFETIME_SECONDS,
      ...(parsed.refresh_token ? { refreshToken: parsed.refresh_token } : {}),
      ...(parsed.refresh_token_expires_in ? { refreshExpiresIn: Number(parsed.refresh_token_expires_in) } : {}),
      scopes: (parsed.scope ?? '').split(/[\s,]+/).filter(Boolean),
      ...(parsed.id_token ? { idToken: parsed.id_token } : {}),
    });
  }
  const codeRefused =
    response.status === 400 &&
    (parsed?.error === 'invalid_grant' || (parsed?.error === 'invalid_request' && /^Unable to retrieve access token/.test(parsed.error_description ?? '')));
  if (codeRefused)
    return fail(new PlatformAuthExpired(endpoint.platform, 'The authorization code was already used or has expired; connect the account again.'));
  if (response.status < 500 && response.status !== 429)
    log().error('the platform refused our code exchange', { platform: endpoint.platform, status: response.status, error: parsed?.error });
  return fail(new PlatformUnavailable(endpoint.platform, new Error(`code exchange answered ${response.status} ${parsed?.error ?? ''}`)));
}

/** Exchanges an authorization code once (no retry: a code is single-use), with the PKCE verifier where one was sent. */
export function exchangeAuthorizationCode(
  endpoint: TokenEndpoint,
  grant: { code: string; redirectUri: string; codeVerifier?: string },
  budget: CallBudget,
): Promise<IssuedGrant> {
  const fields = {
    grant_type: 'authorization_code',
    code: grant.code,
    redirect_uri: grant.redirectUri,
    ...(grant.codeVerifier ? { code_verifier: grant.codeVerifier } : {}),
  };
  return postGrant(endpoint, fields, budget, (response) => classifyCodeExchange(endpoint, response), false);
}

interface CachedToken {
  token: Promise<string>;
  value?: string;
  expiresAt: number;
}

const cache = new Map<string, CachedToken>();
const keyOf = (endpoint: TokenEndpoint, refreshToken: string) => createHash('sha256').update(`${endpoint.platform}\n${refreshToken}`).digest('hex');

/** An access token for the refresh token: cached, and one request however many callers ask at once. */
export async function accessTokenFor(endpoint: TokenEndpoint, refreshToken: string, budget: CallBudget): Promise<string> {
  const key = keyOf(endpoint, refreshToken);
  const cached = cache.get(key);
  if (cached && cached.expiresAt - RENEW_BEFORE_MS > clock.now()) return cached.token;
  const pending = refreshGrant(endpoint, refreshToken, budget);
  const entry: CachedToken = { token: pending.then((issued) => issued.accessToken), expiresAt: Number.POSITIVE_INFINITY };
  entry.token.catch(() => undefined); // a failed refresh reaches each waiter, not the process
  cache.set(key, entry);
  try {
    const { accessToken, expiresIn } = await pending;
    entry.value = accessToken;
    entry.expiresAt = clock.now() + expiresIn * 1000;
    return accessToken;
  } catch (error) {
    if (cache.get(key) === entry) cache.delete(key);
    throw error;
  }
}

/** Forgets an access token the platform refused (401), so the next call refreshes. */
export function forgetAccessToken(endpoint: TokenEndpoint, refreshToken: string, refused: string): void {
  const key = keyOf(endpoint, refreshToken);
  if (cache.get(key)?.value === refused) cache.delete(key);
}

/** Caches an access token issued with a grant (a code exchange), so the first calls need no refresh. */
export function rememberAccessToken(endpoint: TokenEndpoint, refreshToken: string, accessToken: string, expiresIn: number): void {
  cache.set(keyOf(endpoint, refreshToken), { token: Promise.resolve(accessToken), value: accessToken, expiresAt: clock.now() + expiresIn * 1000 });
}

/**
 * Revokes a token at an RFC 7009 endpoint, the token in the form body (never the URL). A token the
 * endpoint calls invalid is already dead, which is what a revocation wants.
 */
export function revokeToken(platform: Platform, url: string, fields: Record<string, string>, budget: CallBudget): Promise<void> {
  return callPlatform(budget, {
    platform,
    request: () => ({
      url,
      init: { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() },
      logPath: new URL(url).pathname,
    }),
    classify: (response) => {
      if (response.status === 200) return ok(undefined);
      const error = (parseJson(response.text) as { error?: string } | undefined)?.error;
      if (response.status === 400 && (error === 'invalid_token' || error === 'invalid_grant')) return ok(undefined);
      if (response.status >= 500 || response.status === 429) return retry(new PlatformUnavailable(platform));
      log().error('the platform refused our token revocation', { platform, status: response.status, error });
      return fail(new PlatformUnavailable(platform, new Error(`revocation answered ${response.status}`)));
    },
    retrySafe: true,
    secrets: () => Object.values(fields),
  });
}
