import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { documentStore } from '../../shared/store/client.ts';
import { hashApiKey, findTenantIdByKeyHash } from '../../shared/store/api-keys.ts';
import { call, newTenant } from '../helpers/api.ts';
import { keys } from '../../shared/store/keys.ts';

const connections = () => ({
  social: { accessToken: `EAAsecret-${randomUUID()}`, adAccountId: 'act_1234567', pageId: '998877' },
  searchads: { refreshToken: `1//refresh-${randomUUID()}`, customerId: '123-456-7890', loginCustomerId: '9876543210' },
  professional: { accessToken: `AQVsecret-${randomUUID()}`, refreshToken: `AQXrefresh-${randomUUID()}`, adAccountId: 'urn:li:sponsoredAccount:5001' },
});

describe('create_user and get_profile', () => {
  it('creates a user and shows its connections without any secret', async () => {
    const apiKey = await newTenant();
    const conns = connections();
    const created = await call('/users/create_user', { userId: 'alice', connections: conns }, { apiKey });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({ success: true, results: { success: true, userId: 'alice' } });

    const profile = await call('/users/get_profile', { userId: 'alice' }, { apiKey });
    expect(profile.status).toBe(200);
    const health = { status: 'active', connectedAt: profile.body.results.user.createdAt, connectedVia: 'token' };
    expect(profile.body.results.user).toEqual({
      userId: 'alice',
      createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      connections: {
        social: { adAccountId: '1234567', pageId: '998877', ...health },
        searchads: { customerId: '1234567890', loginCustomerId: '9876543210', ...health },
        professional: { adAccountId: '5001', ...health },
      },
    });
    for (const secret of [conns.social.accessToken, conns.searchads.refreshToken, conns.professional.accessToken, conns.professional.refreshToken]) {
      expect(created.text).not.toContain(secret);
      expect(profile.text).not.toContain(secret);
    }
  });

  it('stores tokens sealed, never in plain text', async () => {
    const apiKey = await newTenant();
    const conns = connections();
    await call('/users/create_user', { userId: 'sealed', connections: conns }, { apiKey });
    const tenantId = await findTenantIdByKeyHash(hashApiKey(apiKey));
    const item = await documentStore().send(new GetCommand({ TableName: process.env.TABLE_NAME, Key: keys.user(tenantId as string, 'sealed') }));
    const stored = JSON.stringify(item.Item);
    expect(stored).toContain('"adAccountId":"1234567"');
    expect(stored).not.toContain(conns.social.accessToken);
    expect(stored).not.toContain(conns.searchads.refreshToken);
    expect(stored).not.toContain(conns.professional.accessToken);
    expect(item.Item?.connections.social.accessToken).toMatch(/^v1\./);
  });

  it('generates a userId when none is given', async () => {
    const apiKey = await newTenant();
    const created = await call('/users/create_user', {}, { apiKey });
    expect(created.status).toBe(200);
    expect(created.body.results.userId).toMatch(/^usr_[0-9a-f-]{36}$/);
    const profile = await call('/users/get_profile', { userId: created.body.results.userId }, { apiKey });
    expect(profile.body.results.user.connections).toEqual({});
  });

  it('refuses a userId that already exists, keeping the first user', async () => {
    const apiKey = await newTenant();
    await call('/users/create_user', { userId: 'bob', connections: { searchads: { refreshToken: 'r1', customerId: '1111111111' } } }, { apiKey });
    const again = await call('/users/create_user', { userId: 'bob', connections: { searchads: { refreshToken: 'r2', customerId: '2222222222' } } }, { apiKey });
    expect(again.status).toBe(409);
    expect(again.body.results.code).toBe('USER_ALREADY_EXISTS');
    const profile = await call('/users/get_profile', { userId: 'bob' }, { apiKey });
    expect(profile.body.results.user.connections.searchads.customerId).toBe('1111111111');
  });

  it('names every invalid connection field in details', async () => {
    const apiKey = await newTenant();
    const response = await call(
      '/users/create_user',
      { userId: 'bad id!', connections: { social: { adAccountId: 'abc' }, searchads: { refreshToken: 'x', customerId: '12345' } } },
      { apiKey },
    );
    expect(response.status).toBe(400);
    expect(response.body.success).toBe(false);
    expect(response.body.results.code).toBe('INVALID_REQUEST');
    const paths = response.body.results.details.map((detail: { path: string }) => detail.path).sort();
    expect(paths).toEqual(['connections.searchads.customerId', 'connections.social.accessToken', 'connections.social.adAccountId', 'userId']);
    // nothing was created
    const profile = await call('/users/get_profile', { userId: 'bad-id' }, { apiKey });
    expect(profile.status).toBe(404);
  });

  it('answers a retry with the same Idempotency-Key from the stored result', async () => {
    const apiKey = await newTenant();
    const key = randomUUID();
    const first = await call('/users/create_user', { connections: {} }, { apiKey, headers: { 'idempotency-key': key } });
    const second = await call('/users/create_user', { connections: {} }, { apiKey, headers: { 'idempotency-key': key } });
    expect(first.status).toBe(200);
    expect(second.body).toEqual(first.body);

    const conflicting = await call('/users/create_user', { userId: 'other' }, { apiKey, headers: { 'idempotency-key': key } });
    expect(conflicting.status).toBe(409);
    expect(conflicting.body.results.code).toBe('IDEMPOTENCY_CONFLICT');
    expect((await call('/users/get_profile', { userId: 'other' }, { apiKey })).status).toBe(404);
  });

  it('scopes Idempotency-Keys to the tenant', async () => {
    const key = randomUUID();
    const first = await call('/users/create_user', {}, { apiKey: await newTenant(), headers: { 'idempotency-key': key } });
    const second = await call('/users/create_user', {}, { apiKey: await newTenant(), headers: { 'idempotency-key': key } });
    expect(second.status).toBe(200);
    expect(second.body.results.userId).not.toBe(first.body.results.userId);
  });

  it('refuses a malformed Idempotency-Key', async () => {
    const response = await call('/users/create_user', {}, { apiKey: await newTenant(), headers: { 'idempotency-key': 'x'.repeat(300) } });
    expect(response.status).toBe(400);
    expect(response.body.results.details[0].path).toBe('headers.idempotency-key');
  });
});
