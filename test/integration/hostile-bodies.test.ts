import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { handler as createUser } from '../../functions/create-user/handler.ts';
import { MAX_JSON_DEPTH } from '../../shared/http/middleware/json-body.ts';
import { routes } from '../../functions/routes.ts';
import { call, newTenant, newUser } from '../helpers/api.ts';
import { lambdaContext, loadEvent } from '../helpers/events.ts';

// the picker's form post is a browser's, answered with HTML: test/integration/connect-links.test.ts
// the uploads take JSON too (an uploadId); /mcp answers JSON-RPC, its hostile bodies in test/integration/mcp.test.ts
const jsonRoutes = routes.filter((route) => route.method === 'POST' && !route.browser && !route.inbound && !route.protocol);
const idempotentJsonRoutes = jsonRoutes.filter((route) => route.idempotent);

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

  it('__proto__ and constructor keys pollute nothing where the handler runs', async () => {
    // the handler runs in this process here, so this process's prototypes are the ones to check
    const apiKey = await newTenant();
    const event = loadEvent('create-user.valid');
    event.headers['x-api-key'] = apiKey;
    event.body = '{"__proto__": {"isAdmin": true, "userId": "x"}, "constructor": {"prototype": {"polluted": 1}}, "connections": {}}';
    // keys the request does not have are refused, these too
    const unknown = await createUser(event, lambdaContext());
    expect(unknown.statusCode).toBe(400);
    expect(JSON.parse(unknown.body).results.details).toEqual([{ path: '', message: expect.stringMatching(/__proto__.*constructor|constructor.*__proto__/) }]);
    event.body = '{"connections": {}}';
    const response = await createUser(event, lambdaContext());
    expect(response.statusCode).toBe(200);
    // inside connections, __proto__ is a key no platform has: refused like any unknown platform
    const nested = loadEvent('create-user.valid');
    nested.headers['x-api-key'] = apiKey;
    nested.body = '{"connections": {"__proto__": {"social": 1}}}';
    const refused = await createUser(nested, lambdaContext());
    expect(refused.statusCode).toBe(400);
    expect(JSON.parse(refused.body).results.details).toEqual([expect.objectContaining({ path: 'connections' })]);
    expect(Object.keys(Object.prototype)).toEqual([]);
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).social).toBeUndefined();
    const userId = JSON.parse(response.body).results.userId;
    const profile = await call('/users/get_profile', { userId }, { apiKey });
    expect(profile.body.results.user.connections).toEqual({});
    expect(profile.body.results.user).not.toHaveProperty('isAdmin');
  });

  it('deep nesting is refused before anything walks it, with or without an Idempotency-Key', async () => {
    const deepArray = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const first = await call('/users/get_profile', undefined, { raw: `{"userId": ${deepArray}}` });
    expect(first.status).toBe(400);
    expect(first.body.results).toMatchObject({ code: 'INVALID_REQUEST', details: [{ path: '', message: `nests deeper than ${MAX_JSON_DEPTH} levels` }] });
    const deepObject = `${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}`;
    for (const route of idempotentJsonRoutes) {
      const response = await call(route.path, undefined, { raw: `{"connections": ${deepObject}}`, headers: { 'idempotency-key': randomUUID() } });
      expect(response.status, route.path).toBe(400);
      expect(response.body.results.error).toContain(`deeper than ${MAX_JSON_DEPTH} levels`);
    }
    // as deep as the limit, in a string or not, is parsed as usual
    const atLimit = `${'{"a":'.repeat(MAX_JSON_DEPTH - 1)}1${'}'.repeat(MAX_JSON_DEPTH - 1)}`;
    expect((await call('/users/get_profile', undefined, { raw: `{"userId": "[[[[${'['.repeat(100)}", "x": ${atLimit}}` })).body.results.details).toEqual([
      { path: 'userId', message: expect.any(String) },
      { path: '', message: expect.stringContaining('"x"') }, // an unknown key, refused as every one is
    ]);
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
