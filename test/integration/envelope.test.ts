import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  PlatformAuthExpired,
  PlatformRateLimited,
  PlatformRejected,
  PlatformTimeout,
  PlatformUnavailable,
  type ServiceError,
} from '../../shared/core/errors.ts';
import { defineOperation } from '../../shared/http/operation.ts';
import { openConnection } from '../../shared/store/users.ts';
import { newTenant, newUser, stack } from '../helpers/api.ts';
import { lambdaContext } from '../helpers/events.ts';

/**
 * The rows of the error table that only platform adapters produce, through the real middleware
 * stack (auth and user lookup against the test stack's dynalite).
 */
function operationThrowing(error: () => unknown) {
  return defineOperation({
    declaration: { operation: 'test_operation' },
    request: z.object({ userId: z.string() }),
    run: async () => {
      throw error();
    },
  });
}

const event = (): APIGatewayProxyEventV2 =>
  ({
    version: '2.0',
    routeKey: 'POST /test',
    rawPath: '/test',
    rawQueryString: '',
    headers: { 'content-type': 'application/json', 'x-api-key': stack().apiKey },
    requestContext: { requestId: randomUUID(), http: { method: 'POST', path: '/test' } },
    body: JSON.stringify({ userId: 'demo-user' }),
    isBase64Encoded: false,
  }) as unknown as APIGatewayProxyEventV2;

async function answer(error: () => unknown) {
  const response = await operationThrowing(error)(event(), lambdaContext() as Context);
  return { ...response, json: JSON.parse(response.body) };
}

describe('error envelope for platform failures', () => {
  it.each<[string, () => ServiceError, number, boolean]>([
    ['PLATFORM_REJECTED', () => new PlatformRejected('social', 'The audience is too small.', { platformCode: 100 }), 200, true],
    ['PLATFORM_AUTH_EXPIRED', () => new PlatformAuthExpired('social', 'The user’s social token has expired; reconnect the account.'), 200, true],
    ['PLATFORM_RATE_LIMITED', () => new PlatformRateLimited('searchads', 42.2), 429, false],
    ['PLATFORM_UNAVAILABLE', () => new PlatformUnavailable('professional'), 502, false],
    ['PLATFORM_TIMEOUT', () => new PlatformTimeout('social'), 504, false],
  ])('%s → HTTP %i', async (code, error, status, success) => {
    const response = await answer(error);
    expect(response.statusCode).toBe(status);
    expect(response.json.success).toBe(success);
    expect(response.json.results).toMatchObject({ success: false, code, error: expect.any(String) });
    expect(response.headers['x-request-id']).toBeTruthy();
  });

  it('sets Retry-After when rate limited', async () => {
    const response = await answer(() => new PlatformRateLimited('searchads', 42.2));
    expect(response.headers['retry-after']).toBe('43');
    expect(response.json.results.error).toContain('43 seconds');
  });

  it('keeps platform details of a rejection in results', async () => {
    const response = await answer(() => new PlatformRejected('social', 'Invalid parameter', { platformCode: 100 }));
    expect(response.json.results).toEqual({
      success: false,
      code: 'PLATFORM_REJECTED',
      error: 'Invalid parameter',
      platform: 'social',
      platformCode: 100,
    });
  });

  it('409 PLATFORM_NOT_CONNECTED when the user has no connection for the platform', async () => {
    const operation = defineOperation({
      declaration: { operation: 'test_operation' },
      request: z.object({ userId: z.string() }),
      run: async ({ user }) => ({ connection: Object.keys(openConnection(user, 'social')) }),
    });
    const apiKey = await newTenant();
    const userId = await newUser(apiKey, { searchads: { refreshToken: 'r', customerId: '1234567890' } });
    const unconnected = event();
    unconnected.headers['x-api-key'] = apiKey;
    unconnected.body = JSON.stringify({ userId });
    const response = await operation(unconnected, lambdaContext() as Context);
    expect(response.statusCode).toBe(409);
    expect(JSON.parse(response.body).results).toMatchObject({ code: 'PLATFORM_NOT_CONNECTED', error: expect.stringContaining('social') });
  });

  it('500 INTERNAL for anything unexpected, without message or stack', async () => {
    const response = await answer(() => new TypeError('secret-ish detail at /var/task/index.js:1'));
    expect(response.statusCode).toBe(500);
    expect(response.json).toEqual({
      success: false,
      results: { success: false, code: 'INTERNAL', error: 'An internal error occurred; it has been logged. Please retry later.' },
    });
    expect(response.body).not.toContain('secret-ish');
  });
});
