import { describe, expect, it } from 'vitest';
import { PlatformAuthExpired, PlatformRateLimited, PlatformRejected, PlatformUnavailable, type PlatformError } from '../../shared/core/errors.ts';
import { classifyCodeExchange, classifyTokenResponse, type TokenEndpoint } from '../../shared/platforms/oauth-token-client.ts';
import { classifyRestliResponse, type RestliCallOptions } from '../../shared/platforms/professional/client.ts';
import { classifyAdsResponse } from '../../shared/platforms/searchads/client.ts';
import { classifyGraphResponse } from '../../shared/platforms/social/client.ts';
import type { Verdict } from '../../shared/platforms/upstream.ts';
import { fixture } from '../helpers/fixtures.ts';

/** The platforms' recorded error bodies (copied from the contracts) through the pure classifiers. */
const errorOf = (verdict: Verdict<unknown>): PlatformError => {
  if (verdict.outcome === 'ok') throw new Error('expected a failure verdict');
  return verdict.error;
};

describe('social errors (docs/platforms.md, "Social")', () => {
  const usage = fixture('social/response_headers_usage.json') as Record<string, string>;
  const classify = (name: string, options: { retrySafe?: boolean; status?: number; headers?: Record<string, string> } = {}) =>
    classifyGraphResponse(
      { status: options.status ?? 400, headers: new Headers(options.headers ?? {}), text: JSON.stringify(fixture(`social/${name}.json`)) },
      { retrySafe: options.retrySafe ?? true, accessToken: 'EAAtoken' },
    );

  it('an expired or invalid token is never retried and asks the user to reconnect', () => {
    for (const name of ['error_190_token_expired', 'error_190_token_invalid']) {
      const verdict = classify(name);
      expect(verdict.outcome).toBe('fail');
      expect(errorOf(verdict)).toBeInstanceOf(PlatformAuthExpired);
    }
  });

  it('throttling is retried, waiting what the usage headers name (minutes), else backing off', () => {
    const named = classify('error_80004_ads_management_buc', { headers: { 'x-business-use-case-usage': usage['x-business-use-case-usage']! } });
    expect(named).toMatchObject({ outcome: 'retry', afterMs: 19 * 60_000 });
    expect((errorOf(named) as PlatformRateLimited).retryAfterSeconds).toBe(19 * 60);
    const unnamed = classify('error_17_user_request_limit', { headers: { 'x-ad-account-usage': usage['x-ad-account-usage']! } });
    expect(unnamed).toMatchObject({ outcome: 'retry', afterMs: 0 });
    expect((errorOf(unnamed) as PlatformRateLimited).retryAfterSeconds).toBe(100);
    // a creating call is resent after throttling too: the platform surely did not act
    expect(classify('error_4_app_request_limit', { retrySafe: false }).outcome).toBe('retry');
  });

  it('a busy audience is retried on reads and not resent on creating calls; request errors fail with their code', () => {
    expect(classify('error_2650_replace_in_progress').outcome).toBe('retry');
    expect(classify('error_2650_replace_in_progress', { retrySafe: false }).outcome).toBe('fail');
    const invalid = classify('error_100_invalid_parameter');
    expect(invalid.outcome).toBe('fail');
    expect(errorOf(invalid)).toBeInstanceOf(PlatformRejected);
    expect((errorOf(invalid) as PlatformRejected).extra).toMatchObject({ platformCode: 100, fbtraceId: expect.any(String) });
    expect(errorOf(classify('error_200_custom_audience_terms'))).toBeInstanceOf(PlatformRejected);
  });

  it('a 5xx without a readable body is retried only when the call is safe to repeat', () => {
    const broken = (retrySafe: boolean) => classifyGraphResponse({ status: 503, headers: new Headers(), text: '<html>' }, { retrySafe, accessToken: 't' });
    expect(broken(true).outcome).toBe('retry');
    expect(broken(false).outcome).toBe('fail');
    expect(errorOf(broken(false))).toBeInstanceOf(PlatformUnavailable);
  });

  it('a platform message that echoes the token is redacted', () => {
    const text = JSON.stringify({ error: { code: 100, message: 'bad token EAAtoken here' } });
    const verdict = classifyGraphResponse({ status: 400, headers: new Headers(), text }, { retrySafe: true, accessToken: 'EAAtoken' });
    expect(errorOf(verdict).message).not.toContain('EAAtoken');
  });
});

describe('search-ads errors (docs/platforms.md, "Search ads")', () => {
  const classify = (name: string, status: number) => classifyAdsResponse(status, JSON.stringify(fixture(`searchads/${name}.json`)), true);

  it('an expired access token, in either recorded form, is a refresh, not the user’s problem', () => {
    expect(classify('error-unauthenticated-expired-token', 401).outcome).toBe('refreshAuth');
    expect(classify('error-unauthenticated-expired-token.errorinfo-variant', 401).outcome).toBe('refreshAuth');
  });

  it('an exhausted daily quota is a 429 naming the platform’s own wait, not retried within the request', () => {
    const verdict = classify('error-resource-exhausted-quota', 429);
    expect(verdict.outcome).toBe('fail');
    expect((errorOf(verdict) as PlatformRateLimited).retryAfterSeconds).toBe(41243);
  });

  it('a policy finding is PLATFORM_REJECTED with the code, the field path and the request id', () => {
    const error = errorOf(classify('error-invalid-argument-policy', 400)) as PlatformRejected;
    expect(error).toBeInstanceOf(PlatformRejected);
    expect(error.extra).toMatchObject({
      platformCode: 'policyFindingError.POLICY_FINDING',
      fieldPath: 'mutate_operations[8].ad_group_ad_operation.create.ad',
      requestId: expect.any(String),
    });
    expect(error.message).toMatch(/^policyFindingError\.POLICY_FINDING: The resource has been disapproved/);
  });

  it('a 5xx is retried only on a safe call; a concurrent modification (409) always', () => {
    expect(classifyAdsResponse(503, '{}', true).outcome).toBe('retry');
    expect(classifyAdsResponse(503, '{}', false).outcome).toBe('fail');
    expect(classifyAdsResponse(409, '{}', false).outcome).toBe('retry');
  });

  it('a 200 answer is ok with its body; an unreadable one is the platform’s failure', () => {
    const body = fixture('searchads/search-stream-campaign-daily.response.json');
    expect(classifyAdsResponse(200, JSON.stringify(body), true)).toEqual({ outcome: 'ok', value: body });
    expect(errorOf(classifyAdsResponse(200, '<html>', true))).toBeInstanceOf(PlatformUnavailable);
  });
});

describe('professional-network errors (docs/platforms.md, "Professional")', () => {
  const classify = (name: string, options: RestliCallOptions = { retrySafe: true }) => {
    const { response } = fixture(`professional/${name}.json`) as { response: { status: number; body: Record<string, unknown> } };
    return classifyRestliResponse(response.status, response.body, options);
  };

  it('an expired token (65602) is a refresh; a revoked or invalid one asks the user to reconnect', () => {
    expect(classify('error-401-expired-token').outcome).toBe('refreshAuth');
    expect(errorOf(classify('error-401-revoked-token'))).toBeInstanceOf(PlatformAuthExpired);
    expect(classify('error-401-invalid-token').outcome).toBe('fail');
  });

  it('a sunset version names the version to move from', () => {
    const error = errorOf(classify('error-426-sunset-version'));
    expect(error).toBeInstanceOf(PlatformRejected);
    expect(error.message).toContain('NONEXISTENT_VERSION');
  });

  it('throttling is retried, then a 429 until midnight UTC; the segment cap is the user’s to fix', () => {
    const throttled = classify('error-429-throttled');
    expect(throttled.outcome).toBe('retry');
    expect(errorOf(throttled)).toBeInstanceOf(PlatformRateLimited);
    const capped = classify('error-429-segment-limit');
    expect(capped.outcome).toBe('fail');
    expect(errorOf(capped).message).toContain('Delete unused audiences');
  });

  it('validation and missing objects are PLATFORM_REJECTED with the field and status; a 404 is waited for where asked', () => {
    const invalid = errorOf(classify('error-422-invalid-field')) as PlatformRejected;
    expect(invalid.message).toContain('/type');
    expect(invalid.extra).toMatchObject({ platformStatus: 422 });
    expect((errorOf(classify('error-404-segment-not-found')) as PlatformRejected).extra).toMatchObject({ platformStatus: 404, platformCode: 'NOT_FOUND' });
    expect(classify('error-404-segment-not-found').outcome).toBe('fail');
    expect(classify('error-404-segment-not-found', { retrySafe: true, notFoundIsTransient: true })).toMatchObject({ outcome: 'retry', afterMs: 2_000 });
  });

  it('a 5xx is retried when the call is safe to repeat, and not otherwise', () => {
    expect(classifyRestliResponse(503, { status: 503, message: 'Service Unavailable' }, { retrySafe: true }).outcome).toBe('retry');
    expect(classifyRestliResponse(503, { status: 503, message: 'Service Unavailable' }, { retrySafe: false }).outcome).toBe('fail');
  });

  it('a 429 waits for the daily reset, or for the Retry-After the platform sends', () => {
    const wait = (headers?: Headers) =>
      (errorOf(classifyRestliResponse(429, { status: 429 }, { retrySafe: false }, headers)) as PlatformRateLimited).retryAfterSeconds;
    expect(wait(new Headers({ 'retry-after': '7' }))).toBe(7);
    expect(wait()).toBeGreaterThan(0);
    expect(wait()).toBeLessThanOrEqual(86_400);
    expect(wait(new Headers({ 'retry-after': 'soon' }))).toBe(wait());
  });
});

describe('token endpoint answers (RFC 6749 §5)', () => {
  const endpoint: TokenEndpoint = {
    platform: 'searchads',
    url: 'https://oauth.invalid/token',
    clientId: 'id',
    clientSecret: 'secret',
    reconnectHint: 'reconnect.',
  };
  const answer = (status: number, body: unknown) => classifyTokenResponse(endpoint, { status, headers: new Headers(), text: JSON.stringify(body) });

  it('a token is ok with its lifetime', () => {
    expect(answer(200, fixture('searchads/oauth-token.response.json'))).toMatchObject({
      outcome: 'ok',
      value: { accessToken: expect.any(String), expiresIn: 3599 },
    });
    expect(answer(200, fixture('professional/oauth-token-refresh.json').response.body)).toMatchObject({ outcome: 'ok' });
  });

  it('invalid_grant is the user’s (reconnect); invalid_client is ours (502), never retried', () => {
    for (const body of [fixture('oauth/searchads-invalid-grant.json'), fixture('professional/oauth-token-error-invalid-grant.json').response.body]) {
      const verdict = answer(400, body);
      expect(verdict.outcome).toBe('fail');
      expect(errorOf(verdict)).toBeInstanceOf(PlatformAuthExpired);
    }
    const ours = answer(401, fixture('oauth/searchads-invalid-client.json'));
    expect(ours.outcome).toBe('fail');
    expect(errorOf(ours)).toBeInstanceOf(PlatformUnavailable);
  });

  it('a 5xx, a 429 or an unreadable answer is retried', () => {
    expect(answer(503, {}).outcome).toBe('retry');
    expect(answer(429, { error: 'rate' }).outcome).toBe('retry');
    expect(classifyTokenResponse(endpoint, { status: 200, headers: new Headers(), text: 'nope' }).outcome).toBe('retry');
  });
});

describe('authorization-code exchanges (docs/platforms.md, "What every connect round trip shares")', () => {
  const google: TokenEndpoint = {
    platform: 'searchads',
    url: 'https://oauth.invalid/token',
    clientId: 'id',
    clientSecret: 'secret',
    reconnectHint: 'reconnect.',
  };
  const linkedin: TokenEndpoint = { ...google, platform: 'professional' };
  const answer = (endpoint: TokenEndpoint, status: number, body: unknown) =>
    classifyCodeExchange(endpoint, { status, headers: new Headers(), text: JSON.stringify(body) });

  it('a grant carries its tokens, lifetime and scopes, space- or comma-separated', () => {
    expect(answer(google, 200, fixture('oauth/searchads-token-authorization-code.json'))).toMatchObject({
      outcome: 'ok',
      value: {
        accessToken: expect.stringMatching(/^ya29\./),
        expiresIn: 3599,
        refreshToken: expect.stringMatching(/^1\/\//),
        idToken: expect.any(String),
        scopes: ['openid', 'https://www.googleapis.com/auth/userinfo.email', 'https://www.googleapis.com/auth/adwords'],
      },
    });
    expect(answer(linkedin, 200, fixture('oauth/professional-oauth-access-token.json'))).toMatchObject({
      outcome: 'ok',
      value: { expiresIn: 5184000, scopes: ['r_ads', 'rw_ads', 'rw_dmp_segments'] },
    });
  });

  it('a used, expired or mismatched code means consenting again, and nothing is retried', () => {
    for (const [endpoint, body] of [
      [google, fixture('oauth/searchads-invalid-grant.json')],
      [google, fixture('oauth/searchads-invalid-grant-pkce.json')],
      [linkedin, fixture('oauth/professional-token-error-code-mismatch.json')],
    ] as const) {
      const verdict = answer(endpoint, 400, body);
      expect(verdict.outcome).toBe('fail');
      expect(errorOf(verdict)).toBeInstanceOf(PlatformAuthExpired);
    }
  });

  it('our own mistakes (unknown client, unregistered redirect URI) and the platform’s failures are 502s, never retried', () => {
    for (const [status, body] of [
      [401, fixture('oauth/searchads-invalid-client.json')],
      [400, fixture('oauth/searchads-redirect-uri-mismatch.json')],
      [503, {}],
    ] as const) {
      const verdict = answer(google, status, body);
      expect(verdict.outcome).toBe('fail');
      expect(errorOf(verdict)).toBeInstanceOf(PlatformUnavailable);
    }
  });
});
