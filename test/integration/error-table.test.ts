import { describe, expect, it } from 'vitest';
import { call, newTenant, newUser, stack } from '../helpers/api.ts';

/** Every row of the error table (docs/errors.md) that the foundation produces, over HTTP through the gateway. */
describe('error table over HTTP', () => {
  const envelope = (code: string, httpOk = false) => ({
    success: httpOk,
    results: expect.objectContaining({ success: false, code, error: expect.any(String) }),
  });

  it('401 UNAUTHORIZED for a missing key', async () => {
    const response = await call('/users/get_profile', { userId: 'demo-user' }, { apiKey: null });
    expect(response.status).toBe(401);
    expect(response.body).toEqual(envelope('UNAUTHORIZED'));
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('401 UNAUTHORIZED for an unknown key, without echoing it', async () => {
    const response = await call('/users/get_profile', { userId: 'demo-user' }, { apiKey: 'ak_not-a-real-key-123' });
    expect(response.status).toBe(401);
    expect(response.body).toEqual(envelope('UNAUTHORIZED'));
    expect(response.text).not.toContain('not-a-real-key');
  });

  it('400 INVALID_REQUEST for malformed JSON', async () => {
    const response = await call('/users/get_profile', undefined, { raw: '{"userId": "demo-user",' });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(envelope('INVALID_REQUEST'));
    expect(response.body.results.error).toBe('The request body is not valid JSON.');
  });

  it('400 INVALID_REQUEST with one detail per problem', async () => {
    const response = await call('/optimize_me/get_campaign_optimization_history', { userId: 7 });
    expect(response.status).toBe(400);
    expect(response.body.results.details).toEqual([
      { path: 'userId', message: expect.stringContaining('expected string') },
      { path: 'campaignId', message: expect.any(String) },
    ]);
    expect(response.body.results.error).toMatch(/^Invalid request: userId: .*\(and 1 more problem; see details\)\.$/);
  });

  it('415 UNSUPPORTED_MEDIA_TYPE for a body that is not JSON', async () => {
    const response = await call('/users/get_profile', undefined, { raw: 'userId=demo-user', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(response.status).toBe(415);
    expect(response.body).toEqual(envelope('UNSUPPORTED_MEDIA_TYPE'));
  });

  it('404 USER_NOT_FOUND for an unknown user', async () => {
    const response = await call('/users/get_profile', { userId: 'no-such-user' });
    expect(response.status).toBe(404);
    expect(response.body).toEqual(envelope('USER_NOT_FOUND'));
  });

  it('404 NOT_FOUND for an unknown path and 405 for a known path with another method', async () => {
    const unknown = await call('/social/no_such_operation', {});
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(envelope('NOT_FOUND'));
    const wrongMethod = await call('/users/get_profile', undefined, { method: 'GET' });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('POST');
    expect(wrongMethod.body).toEqual(envelope('METHOD_NOT_ALLOWED'));
  });

  it('413 PAYLOAD_TOO_LARGE above the Lambda payload limit, and nothing stored', async () => {
    const apiKey = await newTenant();
    const response = await call('/users/create_user', { userId: 'huge', padding: 'x'.repeat(6 * 1024 * 1024) }, { apiKey });
    expect(response.status).toBe(413);
    expect(response.body).toEqual(envelope('PAYLOAD_TOO_LARGE'));
    expect((await call('/users/get_profile', { userId: 'huge' }, { apiKey })).status).toBe(404);
  });

  it('413 above the gateway’s 10 MB: answered without reading the rest, and the connection closed', async () => {
    const response = await call('/users/get_profile', undefined, { raw: 'x'.repeat(11 * 1024 * 1024) });
    expect(response.status).toBe(413);
    expect(response.body.results.code).toBe('PAYLOAD_TOO_LARGE');
    expect(response.body.results.error).toContain('/uploads/create_upload');
    expect(response.headers.get('connection')).toBe('close');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect((await call('/users/get_profile', { userId: 'demo-user' })).status).toBe(200); // the next request, on a new connection, is served
  });

  it('takes a body just under the limit to validation (no 413): its unknown key is refused by name', async () => {
    const apiKey = await newTenant();
    const response = await call('/users/create_user', { userId: 'big', padding: 'x'.repeat(5 * 1024 * 1024) }, { apiKey });
    expect(response.status).toBe(400);
    expect(response.body.results.details).toEqual([{ path: '', message: expect.stringContaining('"padding"') }]);
  });

  it('409 IDEMPOTENCY_CONFLICT for a reused key with another body', async () => {
    const apiKey = await newTenant();
    const userId = await newUser(apiKey);
    const body = {
      userId,
      campaignId: 'c',
      campaignName: 'n',
      platform: 'social',
      optimizationStatus: 'ACTIVE',
      startDate: 1,
      entry: { adId: 'a', adSetId: 's', timestamp: 2 },
    };
    const headers = { 'idempotency-key': 'reused-key-1' };
    expect((await call('/optimize_me/record_campaign_optimization', body, { apiKey, headers })).status).toBe(200);
    const conflict = await call('/optimize_me/record_campaign_optimization', { ...body, campaignName: 'other' }, { apiKey, headers });
    expect(conflict.status).toBe(409);
    expect(conflict.body).toEqual(envelope('IDEMPOTENCY_CONFLICT'));
  });

  it('every response carries an x-request-id', async () => {
    const response = await fetch(`${stack().url}/nowhere`);
    expect(response.headers.get('x-request-id')).toBeTruthy();
  });
});
