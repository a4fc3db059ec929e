import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { routes } from '../../shared/routes.ts';
import { call, newTenant, newUser } from '../helpers/api.ts';

const jsonRoutes = routes.filter((route) => route.method === 'POST' && !route.usesUploadBucket);

describe('hostile bodies are answered 4xx', () => {
  it.each([
    ['an array', '[1,2,3]'],
    ['a number', '42'],
    ['a string', '"userId"'],
    ['null', 'null'],
    ['true', 'true'],
  ])('non-object JSON: %s', async (_label, raw) => {
    for (const route of jsonRoutes) {
      const response = await call(route.path, undefined, { raw });
      expect(response.status, route.path).toBe(400);
      expect(response.body.results.code).toBe('INVALID_REQUEST');
      expect(response.body.results.details[0]).toMatchObject({ path: '', message: expect.stringContaining('expected object') });
    }
  });

  it('a huge string in a field', async () => {
    const response = await call('/users/get_profile', { userId: 'u'.repeat(1_000_000) });
    expect(response.status).toBe(400);
    expect(response.body.results.details).toEqual([{ path: 'userId', message: expect.stringContaining('128') }]);
    expect(response.text.length).toBeLessThan(2_000); // the value is not echoed
  });

  it('__proto__ and constructor keys do not pollute anything', async () => {
    const apiKey = await newTenant();
    const raw = '{"__proto__": {"isAdmin": true, "userId": "x"}, "constructor": {"prototype": {"polluted": 1}}, "connections": {"__proto__": {"social": 1}}}';
    const response = await call('/users/create_user', undefined, { raw, apiKey });
    expect(response.status).toBe(200);
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const profile = await call('/users/get_profile', { userId: response.body.results.userId }, { apiKey });
    expect(profile.body.results.user.connections).toEqual({});
    expect(profile.body.results.user).not.toHaveProperty('isAdmin');
  });

  it('deep nesting', async () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const response = await call('/users/get_profile', undefined, { raw: `{"userId": ${deep}}` });
    expect(response.status).toBe(400);
    const deepObject = `${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}`;
    const second = await call('/users/create_user', undefined, { raw: `{"connections": ${deepObject}}` });
    expect([200, 400]).toContain(second.status);
  });

  it('wrong types everywhere', async () => {
    const apiKey = await newTenant();
    const userId = await newUser(apiKey);
    const response = await call(
      '/optimize_me/record_campaign_optimization',
      { userId, campaignId: ['x'], campaignName: {}, platform: 1, optimizationStatus: null, startDate: 'soon', entry: [] },
      { apiKey },
    );
    expect(response.status).toBe(400);
    expect(response.body.results.details.map((detail: { path: string }) => detail.path).sort()).toEqual([
      'campaignId',
      'campaignName',
      'entry',
      'optimizationStatus',
      'platform',
      'startDate',
    ]);
  });

  it('an empty body', async () => {
    const response = await call('/users/get_profile', undefined, { raw: '' });
    expect(response.status).toBe(400);
    expect(response.body.results.error).toContain('empty');
  });
});

describe('property: no generated body makes the service answer 5xx', () => {
  it('holds for arbitrary JSON values and near-valid objects on every route', async () => {
    const apiKey = await newTenant();
    const userId = await newUser(apiKey);
    const nearValid = fc.record(
      {
        userId: fc.oneof(fc.constant(userId), fc.string(), fc.anything()),
        campaignId: fc.oneof(fc.string(), fc.anything()),
        connections: fc.anything(),
        entry: fc.anything(),
        startDate: fc.oneof(fc.integer(), fc.double(), fc.string()),
      },
      { requiredKeys: [] },
    );
    const body = fc.oneof(fc.jsonValue(), nearValid, fc.object());
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...jsonRoutes), body, async (route, value) => {
        const raw = JSON.stringify(value) ?? 'null';
        const response = await call(route.path, undefined, { raw, apiKey });
        expect(response.status, `${route.path} ${raw.slice(0, 200)}`).toBeLessThan(500);
        expect(typeof response.body.success).toBe('boolean');
      }),
      { numRuns: 150 },
    );
  });
});
