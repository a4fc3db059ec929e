import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { PlatformAuthExpired } from '../../shared/core/errors.ts';
import { idempotent } from '../../shared/http/idempotency.ts';
import { connectionHealth } from '../../shared/http/middleware/connection-health.ts';
import { defineOperation } from '../../shared/http/operation.ts';
import type { AuditDraft, AuditSpec } from '../../shared/core/audit.ts';
import { PlatformRejected } from '../../shared/core/errors.ts';
import type { User } from '../../shared/store/users.ts';
import { FakeRequestStore, inMemoryIdempotencyLayer, lambdaContext, postEvent } from '../helpers/fakes.ts';

/**
 * The whole middleware chain of defineOperation (tracing, envelope, API key, JSON body, validation,
 * user, connection health, idempotency) with in-memory ports: no stack, no network.
 */
const KEY = 'ak_unit_0123456789abcdef';
const request = z.strictObject({ userId: z.string().min(1), name: z.string().min(1).max(10) });

function setup(options: { fails?: unknown; audit?: boolean } = {}) {
  const store = new FakeRequestStore();
  store.addKey(KEY, { tenantId: 't1', keyId: 'key_1' });
  store.addKey('ak_other_tenant_key_000', { tenantId: 't2', keyId: 'key_2' });
  const user: User = { tenantId: 't1', userId: 'u1', createdAt: new Date().toISOString(), connections: {} };
  store.addUser(user);
  const runs: unknown[] = [];
  const noted: unknown[] = [];
  const recorded: AuditDraft[] = [];
  const audit: AuditSpec = {
    action: 'lead_form.created',
    target: (_input, result) => ({ type: 'lead_form', id: result?.created ?? '' }),
    changes: (input) => ({ name: { to: input.name } }),
    writes: (input) => input.name !== 'dry',
  };
  const handler = defineOperation({
    declaration: { operation: 'unit_op', idempotent: true, platform: 'social', ...(options.audit ? { audit } : {}) },
    ...(options.audit ? { recorder: async (draft: AuditDraft) => void recorded.push(draft) } : {}),
    credentials: async () => undefined,
    connectionHealth: () => connectionHealth(async (_user, error) => void noted.push(error)),
    idempotency: idempotent({ persistenceStore: inMemoryIdempotencyLayer() }),
    ports: store,
    request,
    run: async ({ input, tenantId, user, apiKeyId, idempotencyKey }) => {
      runs.push({ input, tenantId, userId: user.userId, apiKeyId, idempotencyKey });
      if (options.fails) throw options.fails;
      return { created: `${input.name}-${runs.length}` };
    },
  });
  const send = async (body: unknown, headers: Record<string, string> = { 'x-api-key': KEY }) => {
    const response = await handler(postEvent('/social/unit_op', body, headers), lambdaContext());
    return { status: response.statusCode, body: JSON.parse(response.body), headers: response.headers };
  };
  return { store, send, runs, noted, recorded };
}

describe('the operation chain, with in-memory ports', () => {
  it('hands the run the tenant, the user, the key’s id and the parsed input, and wraps the result in the envelope', async () => {
    const { send, runs } = setup();
    const response = await send({ userId: 'u1', name: 'a' });
    expect(response).toMatchObject({ status: 200, body: { success: true, results: { success: true, created: 'a-1' } } });
    expect(response.headers['x-request-id']).toBeTruthy();
    expect(runs).toEqual([{ input: { userId: 'u1', name: 'a' }, tenantId: 't1', userId: 'u1', apiKeyId: 'key_1', idempotencyKey: undefined }]);
  });

  it.each([
    ['no key', {}],
    ['an unknown key', { 'x-api-key': 'ak_nobody_knows_this_key' }],
    ['an over-long key', { 'x-api-key': 'k'.repeat(513) }],
  ])('%s → 401 UNAUTHORIZED, nothing run', async (_case, headers) => {
    const { send, runs } = setup();
    const response = await send({ userId: 'u1', name: 'a' }, headers);
    expect(response).toMatchObject({ status: 401, body: { success: false, results: { success: false, code: 'UNAUTHORIZED' } } });
    expect(runs).toEqual([]);
  });

  it('looks a key up once while it is cached', async () => {
    const { send, store } = setup();
    await send({ userId: 'u1', name: 'a' });
    await send({ userId: 'u1', name: 'b' });
    expect(store.lookups).toBe(1);
  });

  it('a bad body is 400 INVALID_REQUEST naming each field, before the user is looked up or anything runs', async () => {
    const { send, runs } = setup();
    const response = await send({ userId: '', name: 'far too long a name', extra: 1 });
    expect(response.status).toBe(400);
    expect(response.body.results.code).toBe('INVALID_REQUEST');
    expect(response.body.results.details.map((detail: { path: string }) => detail.path).sort()).toEqual(['', 'name', 'userId']);
    expect(runs).toEqual([]);
  });

  it('a body that is not JSON is 400, nothing run', async () => {
    const { send, runs } = setup();
    const response = await send('{"userId": ');
    expect(response).toMatchObject({ status: 400, body: { results: { code: 'INVALID_REQUEST' } } });
    expect(runs).toEqual([]);
  });

  it('another tenant’s user answers exactly as an unknown one: 404 USER_NOT_FOUND', async () => {
    const { send, runs } = setup();
    const unknown = await send({ userId: 'nobody', name: 'a' });
    const otherTenant = await send({ userId: 'u1', name: 'a' }, { 'x-api-key': 'ak_other_tenant_key_000' });
    expect(unknown).toMatchObject({ status: 404, body: { results: { code: 'USER_NOT_FOUND' } } });
    expect(otherTenant.body).toEqual(unknown.body);
    expect(runs).toEqual([]);
  });

  it('an Idempotency-Key replays the first result without running again; another body with it is 409', async () => {
    const { send, runs } = setup();
    const headers = { 'x-api-key': KEY, 'idempotency-key': 'unit-key-1' };
    const first = await send({ userId: 'u1', name: 'a' }, headers);
    const replay = await send({ userId: 'u1', name: 'a' }, headers);
    expect(replay.body).toEqual(first.body);
    expect(runs).toHaveLength(1);
    const changed = await send({ userId: 'u1', name: 'b' }, headers);
    expect(changed).toMatchObject({ status: 409, body: { results: { code: 'IDEMPOTENCY_CONFLICT' } } });
    expect(runs).toHaveLength(1);
  });

  it('a refused grant is noted for the connection, and the answer is the platform’s error', async () => {
    const { send, noted } = setup({ fails: new PlatformAuthExpired('social', 'The grant was refused.') });
    const response = await send({ userId: 'u1', name: 'a' });
    expect(response).toMatchObject({ status: 200, body: { success: true, results: { success: false, code: 'PLATFORM_AUTH_EXPIRED' } } });
    expect(noted).toHaveLength(1);
  });

  it('an unexpected error is 500 INTERNAL with a fixed sentence: its message (which may quote input) is not shown', async () => {
    const { send } = setup({ fails: new Error('secret-ish detail alice@example.com') });
    const response = await send({ userId: 'u1', name: 'a' });
    expect(response).toMatchObject({ status: 500, body: { results: { code: 'INTERNAL' } } });
    expect(JSON.stringify(response.body)).not.toContain('alice@example.com');
  });

  describe('the audit event an operation declares', () => {
    it('is recorded once the operation succeeded, from its input and result, in the tenant’s name', async () => {
      const { send, recorded } = setup({ audit: true });
      await send({ userId: 'u1', name: 'a' });
      expect(recorded).toEqual([
        {
          tenantId: 't1',
          action: 'lead_form.created',
          target: { type: 'lead_form', id: 'a-1' },
          userId: 'u1',
          platform: 'social',
          changes: { name: { to: 'a' } },
        },
      ]);
    });

    it('a platform’s refusal is recorded as failed with its code; our own refusals and dry runs record nothing', async () => {
      const refused = setup({ audit: true, fails: new PlatformRejected('social', 'No.', {}) });
      await refused.send({ userId: 'u1', name: 'a' });
      expect(refused.recorded).toMatchObject([{ action: 'lead_form.created', outcome: 'failed', error: { code: 'PLATFORM_REJECTED' }, target: { id: '' } }]);

      const ours = setup({ audit: true });
      await ours.send({ userId: 'u1', name: '' });
      await ours.send({ userId: 'nobody', name: 'a' });
      await ours.send({ userId: 'u1', name: 'dry' });
      expect(ours.recorded).toEqual([]);
    });

    it('a replayed Idempotency-Key records nothing again', async () => {
      const { send, recorded } = setup({ audit: true });
      const headers = { 'x-api-key': KEY, 'idempotency-key': 'audit-key-1' };
      await send({ userId: 'u1', name: 'a' }, headers);
      await send({ userId: 'u1', name: 'a' }, headers);
      expect(recorded).toHaveLength(1);
    });

    it('a declaration with an event and no recorder (or the reverse) is refused when the handler is built', () => {
      expect(() =>
        defineOperation({
          declaration: { operation: 'x', audit: { action: 'user.created', target: () => ({ type: 'user', id: '' }) } },
          request,
          user: false,
          run: async () => ({}),
        }),
      ).toThrow(/declared audit true, recorder false/);
    });
  });
});
