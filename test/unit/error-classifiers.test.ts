import { describe, expect, it } from 'vitest';
import { PlatformAuthExpired, PlatformRateLimited, PlatformRejected, PlatformUnavailable } from '../../shared/errors.ts';
import { classifyRestliError, TokenExpired } from '../../shared/platforms/professional/client.ts';
import { classifyAdsError } from '../../shared/platforms/searchads/client.ts';
import { TransientFailure } from '../../shared/platforms/upstream.ts';
import { fixture } from '../helpers/fixtures.ts';

/** The platforms' recorded error bodies (copied from the contracts) through the pure classifiers. */
describe('search-ads errors (contract searchads.md §4)', () => {
  const classify = (name: string, status: number) => classifyAdsError(status, JSON.stringify(fixture(`searchads/${name}.json`)), true);

  it('an expired access token, in either recorded form, is a refresh, not the user’s problem', () => {
    expect(classify('error-unauthenticated-expired-token', 401)).toBe('TOKEN_REFUSED');
    expect(classify('error-unauthenticated-expired-token.errorinfo-variant', 401)).toBe('TOKEN_REFUSED');
  });

  it('an exhausted daily quota is a 429 naming the platform’s own wait, not retried within the request', () => {
    const error = classify('error-resource-exhausted-quota', 429);
    expect(error).toBeInstanceOf(PlatformRateLimited);
    expect((error as PlatformRateLimited).retryAfterSeconds).toBe(41243);
  });

  it('a policy finding is PLATFORM_REJECTED with the code, the field path and the request id', () => {
    const error = classify('error-invalid-argument-policy', 400) as PlatformRejected;
    expect(error).toBeInstanceOf(PlatformRejected);
    expect(error.extra).toMatchObject({
      platformCode: 'policyFindingError.POLICY_FINDING',
      fieldPath: 'mutate_operations[8].ad_group_ad_operation.create.ad',
      requestId: expect.any(String),
    });
    expect(error.message).toMatch(/^policyFindingError\.POLICY_FINDING: The resource has been disapproved/);
  });
});

describe('professional-network errors (contract professional.md §5)', () => {
  const classify = (name: string) => {
    const { response } = fixture(`professional/${name}.json`) as { response: { status: number; body: Record<string, unknown> } };
    return classifyRestliError(response.status, response.body, true);
  };

  it('an expired token (65602) is a refresh; a revoked or invalid one asks the user to reconnect', () => {
    expect(classify('error-401-expired-token')).toBeInstanceOf(TokenExpired);
    expect(classify('error-401-revoked-token')).toBeInstanceOf(PlatformAuthExpired);
    expect(classify('error-401-invalid-token')).toBeInstanceOf(PlatformAuthExpired);
  });

  it('a sunset version names the version to move from', () => {
    const error = classify('error-426-sunset-version');
    expect(error).toBeInstanceOf(PlatformRejected);
    expect((error as PlatformRejected).message).toContain('NONEXISTENT_VERSION');
  });

  it('throttling is retried, then a 429 until midnight UTC; the segment cap is the user’s to fix', () => {
    const throttled = classify('error-429-throttled');
    expect(throttled).toBeInstanceOf(TransientFailure);
    expect((throttled as TransientFailure).finalError).toBeInstanceOf(PlatformRateLimited);
    const capped = classify('error-429-segment-limit');
    expect(capped).toBeInstanceOf(PlatformRejected);
    expect((capped as PlatformRejected).message).toContain('Delete unused audiences');
  });

  it('validation and missing objects are PLATFORM_REJECTED with the field and status', () => {
    const invalid = classify('error-422-invalid-field') as PlatformRejected;
    expect(invalid.message).toContain('/type');
    expect(invalid.extra).toMatchObject({ platformStatus: 422 });
    expect((classify('error-404-segment-not-found') as PlatformRejected).extra).toMatchObject({ platformStatus: 404, platformCode: 'NOT_FOUND' });
  });

  it('a 5xx is retried when the call is safe to repeat, and not otherwise', () => {
    expect(classifyRestliError(503, { status: 503, message: 'Service Unavailable' }, true)).toBeInstanceOf(TransientFailure);
    expect(classifyRestliError(503, { status: 503, message: 'Service Unavailable' }, false)).toBeInstanceOf(PlatformUnavailable);
  });
});
