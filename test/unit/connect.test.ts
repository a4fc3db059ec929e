import { describe, expect, it } from 'vitest';
import { returnUrl } from '../../functions/use-cases/connect/connect-outcome.ts';
import { consentQuery } from '../../shared/platforms/connect-flow.ts';
import { codeChallengeOf, hashOf, newCodeVerifier, randomValue } from '../../shared/connect/one-time-values.ts';
import { pickerPage } from '../../shared/connect/pages.ts';
import { PlatformAuthExpired, PlatformUnavailable } from '../../shared/core/errors.ts';
import { classifyCodeExchange, tokenEndpoint } from '../../shared/platforms/oauth-token-client.ts';
import { subjectOfIdToken } from '../../shared/platforms/searchads/connect.ts';
import { classifySocialTokenResponse } from '../../shared/platforms/social/connect.ts';
import type { UpstreamResponse } from '../../shared/platforms/upstream.ts';
import { fixture } from '../helpers/fixtures.ts';

const answer = (status: number, body: unknown): UpstreamResponse => ({ status, headers: new Headers(), text: JSON.stringify(body) });

describe('one-time values', () => {
  it('computes the S256 challenge of RFC 7636 appendix B', () => {
    expect(codeChallengeOf('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
  });

  it('makes verifiers of 43 unreserved characters and states of at least 128 random bits', () => {
    expect(newCodeVerifier()).toMatch(/^[A-Za-z0-9._~-]{43}$/);
    expect(randomValue(16)).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(new Set(Array.from({ length: 1000 }, () => randomValue(32))).size).toBe(1000);
    expect(hashOf('state')).not.toContain('state');
  });
});

describe('the redirect back to the tenant', () => {
  const destination = { redirectUri: 'https://app.example.com/connected', platform: 'social' as const, userId: 'alice' };

  it('carries exactly status, platform, userId and the client state, which decodes byte for byte', () => {
    const state = 'a b&c=d/é+%20?#ü😀';
    const url = new URL(returnUrl({ ...destination, clientState: state }, { status: 'connected' }));
    expect([...url.searchParams.keys()]).toEqual(['status', 'platform', 'userId', 'state']);
    expect(url.searchParams.get('state')).toBe(state);
    expect(decodeURIComponent(url.search.split('state=')[1] as string)).toBe(state);
    expect(url.hash).toBe('');
  });

  it('names the error, keeps a query the redirect URI already has, and leaves out a state never given', () => {
    const url = returnUrl({ ...destination, redirectUri: 'https://app.example.com/cb?tab=ads' }, { status: 'error', error: 'no_ad_account' });
    expect(url).toBe('https://app.example.com/cb?tab=ads&status=error&error=no_ad_account&platform=social&userId=alice');
  });
});

describe('consent URLs', () => {
  it('percent-encode spaces as %20, never +', () => {
    expect(consentQuery({ scope: 'r_ads rw_ads', redirect_uri: 'https://x.example/a?b=c' })).toBe(
      'scope=r_ads%20rw_ads&redirect_uri=https%3A%2F%2Fx.example%2Fa%3Fb%3Dc',
    );
  });
});

describe('the social code and long-lived exchanges (docs/platforms.md "Social")', () => {
  it('reads the tokens', () => {
    expect(classifySocialTokenResponse(answer(200, fixture('connect/social-oauth-access-token.json')))).toMatchObject({ outcome: 'ok' });
    expect(classifySocialTokenResponse(answer(200, fixture('connect/social-long-lived-token.json')))).toMatchObject({ outcome: 'ok' });
  });

  it('sends the person through consent again for a used or expired code', () => {
    for (const file of ['social-error-code-used.json', 'social-error-code-expired.json']) {
      const verdict = classifySocialTokenResponse(answer(400, fixture(`connect/${file}`)));
      expect(verdict).toMatchObject({ outcome: 'fail' });
      expect((verdict as { error: Error }).error).toBeInstanceOf(PlatformAuthExpired);
    }
  });

  it('treats another redirect URI, an unknown app and a wrong secret as our own failure, never retried', () => {
    for (const file of [
      'connect/social-error-redirect-uri-mismatch.json',
      'connect/social-error-invalid-client-id.json',
      'oauth/social-error-invalid-client-secret.json',
    ]) {
      const verdict = classifySocialTokenResponse(answer(400, fixture(file)));
      expect(verdict).toMatchObject({ outcome: 'fail' });
      expect((verdict as { error: Error }).error).toBeInstanceOf(PlatformUnavailable);
    }
  });
});

describe('the OAuth code exchange (docs/platforms.md "Search ads", "Professional")', () => {
  const endpoint = { ...tokenEndpoint('searchads'), url: 'https://oauth2.example/token' };

  it('reads the grant with its refresh token, scopes and id token', () => {
    const verdict = classifyCodeExchange(endpoint, answer(200, fixture('oauth/searchads-token-authorization-code.json')));
    expect(verdict).toMatchObject({
      outcome: 'ok',
      value: { refreshToken: expect.any(String), idToken: expect.any(String), scopes: expect.arrayContaining(['https://www.googleapis.com/auth/adwords']) },
    });
  });

  it('refuses a used code, a PKCE mismatch and LinkedIn’s mismatch as the person’s to redo', () => {
    for (const file of ['searchads-invalid-grant.json', 'searchads-invalid-grant-pkce.json', 'professional-token-error-code-mismatch.json']) {
      const verdict = classifyCodeExchange(endpoint, answer(400, fixture(`oauth/${file}`)));
      expect((verdict as { error: Error }).error).toBeInstanceOf(PlatformAuthExpired);
    }
  });

  it('keeps our own mistakes (redirect URI, client) apart', () => {
    expect((classifyCodeExchange(endpoint, answer(400, fixture('oauth/searchads-redirect-uri-mismatch.json'))) as { error: Error }).error).toBeInstanceOf(
      PlatformUnavailable,
    );
    expect((classifyCodeExchange(endpoint, answer(401, fixture('oauth/searchads-invalid-client.json'))) as { error: Error }).error).toBeInstanceOf(
      PlatformUnavailable,
    );
  });
});

describe('the OpenID subject', () => {
  it('is read from the id token’s claims, and a token without one names nobody', () => {
    const claims = Buffer.from(JSON.stringify({ iss: 'https://accounts.google.com', sub: '110000000000000000001' })).toString('base64url');
    expect(subjectOfIdToken(`eyJhbGciOiJSUzI1NiJ9.${claims}.sig`)).toBe('110000000000000000001');
    expect(subjectOfIdToken('not-a-jwt')).toBeUndefined();
    expect(subjectOfIdToken(`x.${Buffer.from('{"sub":""}').toString('base64url')}.y`)).toBeUndefined();
    expect(subjectOfIdToken(undefined)).toBeUndefined();
  });
});

describe('the account picker', () => {
  it('escapes every name and offers unavailable accounts disabled', () => {
    const html = pickerPage({
      attemptId: 'attempt',
      platform: 'social',
      accounts: [
        { id: '1', name: '<script>alert(1)</script>', selectable: true },
        { id: '2', name: 'Closed "shop"', selectable: false },
      ],
      pages: [{ id: '9', name: 'Page & co' }],
    });
    expect(html).not.toContain('<script>');
    expect(html).toContain('&#60;script&#62;');
    expect(html).toMatch(/value="2" disabled/);
    expect(html).toContain('Page &#38; co');
    expect(html).not.toMatch(/<style|<script|src=|href=/);
  });
});
