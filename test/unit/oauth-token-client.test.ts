import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalClock } from '../../local/clock.ts';
import { useClock } from '../../shared/core/clock.ts';
import { PlatformAuthExpired, PlatformUnavailable } from '../../shared/core/errors.ts';
import { accessTokenFor, exchangeAuthorizationCode, refreshGrant, type TokenEndpoint } from '../../shared/platforms/oauth-token-client.ts';

/** The one OAuth token client against a token endpoint on loopback that answers as each case needs. */
let server: Server;
let endpoint: TokenEndpoint;
const answers: Array<{ status: number; body: unknown }> = [];
const received: URLSearchParams[] = [];

beforeAll(async () => {
  useClock(new LocalClock({ instantSleeps: true }));
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      received.push(new URLSearchParams(body));
      const answer = answers.shift() ?? { status: 200, body: { access_token: `token-${received.length}`, expires_in: 3599, token_type: 'Bearer' } };
      setTimeout(() => response.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body)), 20);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = {
    platform: 'searchads',
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/token`,
    clientId: 'app-id',
    clientSecret: 'app-secret',
    reconnectHint: 'reconnect the account.',
  };
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const budget = () => ({ deadline: Date.now() + 20_000 });

describe('OAuth token client', () => {
  it('sends the refresh grant with our app credentials', async () => {
    received.length = 0;
    await refreshGrant(endpoint, '1//refresh-a', budget());
    expect(Object.fromEntries(received[0] as URLSearchParams)).toEqual({
      grant_type: 'refresh_token',
      client_id: 'app-id',
      client_secret: 'app-secret',
      refresh_token: '1//refresh-a',
    });
  });

  it('invalid_grant is the user’s: PLATFORM_AUTH_EXPIRED', async () => {
    answers.push({ status: 400, body: { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' } });
    await expect(refreshGrant(endpoint, '1//revoked', budget())).rejects.toBeInstanceOf(PlatformAuthExpired);
  });

  it('invalid_client is ours: a 502, never blamed on the user', async () => {
    answers.push({ status: 401, body: { error: 'invalid_client', error_description: 'The OAuth client was not found.' } });
    const error = await refreshGrant(endpoint, '1//fine', budget()).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PlatformUnavailable);
    expect(error).not.toBeInstanceOf(PlatformAuthExpired);
  });

  it('a 5xx is retried', async () => {
    received.length = 0;
    answers.push({ status: 503, body: {} }, { status: 500, body: {} });
    expect((await refreshGrant(endpoint, '1//flaky', budget())).accessToken).toBe('token-3');
    expect(received).toHaveLength(3);
  });

  it('concurrent callers share one refresh, and later ones the cached token', async () => {
    received.length = 0;
    const tokens = await Promise.all(Array.from({ length: 6 }, () => accessTokenFor(endpoint, '1//shared', budget())));
    expect(new Set(tokens).size).toBe(1);
    expect(await accessTokenFor(endpoint, '1//shared', budget())).toBe(tokens[0]);
    expect(received).toHaveLength(1);
  });

  it('exchanges an authorization code once, with the PKCE verifier, and never sends a code twice', async () => {
    received.length = 0;
    const grant = await exchangeAuthorizationCode(
      endpoint,
      { code: '4/code-a', redirectUri: 'https://api.example.com/auth/callback/searchads', codeVerifier: 'v'.repeat(43) },
      budget(),
    );
    expect(grant.accessToken).toMatch(/^token-/);
    expect(Object.fromEntries(received[0] as URLSearchParams)).toEqual({
      grant_type: 'authorization_code',
      code: '4/code-a',
      redirect_uri: 'https://api.example.com/auth/callback/searchads',
      client_id: 'app-id',
      client_secret: 'app-secret',
      code_verifier: 'v'.repeat(43),
    });
    received.length = 0;
    answers.push({ status: 503, body: {} });
    await expect(exchangeAuthorizationCode(endpoint, { code: '4/code-b', redirectUri: 'https://api.example.com/cb' }, budget())).rejects.toBeInstanceOf(
      PlatformUnavailable,
    );
    expect(received).toHaveLength(1);
    expect((received[0] as URLSearchParams).has('code_verifier')).toBe(false);
  });
});
