import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { call, newTenant } from '../helpers/api.ts';
import { eventually } from '../helpers/eventually.ts';
import { scriptedServer, type ReceivedRequest } from '../helpers/scripted-server.ts';

/**
 * Tenant settings and signed webhooks through the real stack: the gateway, the store, the SQS
 * emulator's queue and the delivery worker its consumer runs (retry delays 0 and a 1 s receiver
 * timeout in the test stack), against receivers on loopback that answer as each case needs.
 */
let receiver: Awaited<ReturnType<typeof scriptedServer>>;
beforeAll(async () => {
  receiver = await scriptedServer(() => ({ status: 200, body: { ok: true } }));
});
afterAll(() => receiver.close());
afterEach(() => vi.useRealTimers());

const settings = (apiKey: string, body: unknown) => call('/tenant/update_settings', body, { apiKey });
const events = async (apiKey: string) => (await call('/tenant/list_webhook_events', {}, { apiKey })).body.results.events as Array<Record<string, any>>;
const deliveriesOf = (id: string) => receiver.received.filter((request) => request.headers['webhook-id'] === id);

/** A tenant whose webhook points at the scripted receiver under its own path; returns its key and secret. */
async function tenantWithWebhook(path: string, extra: Record<string, unknown> = {}): Promise<{ apiKey: string; secret: string }> {
  const apiKey = await newTenant();
  const response = await settings(apiKey, { webhook: { url: `${receiver.url}/${path}`, ...extra } });
  expect(response.status, response.text).toBe(200);
  return { apiKey, secret: response.body.results.webhookSecret as string };
}

async function sendTest(apiKey: string): Promise<string> {
  const response = await call('/tenant/send_test_webhook', {}, { apiKey });
  expect(response.status, response.text).toBe(200);
  return response.body.results.event.id as string;
}

const eventOf = (apiKey: string, id: string, done: (event: Record<string, any>) => boolean) =>
  eventually(async () => (await events(apiKey)).find((event) => event.id === id && done(event)), 20_000, `event ${id}`).catch(async (error: Error) => {
    throw new Error(`${error.message}: ${JSON.stringify(await events(apiKey))} deliveries ${deliveriesOf(id).length}`);
  });

/** What an agent may do over /mcp until the tenant says otherwise (docs/agents.md). */
const DEFAULT_AGENTS = { writes: 'confirm', allowedOrigins: [] };

describe('tenant settings', () => {
  it('start empty, keep what an update leaves out, and show the webhook without its secret', async () => {
    const apiKey = await newTenant();
    expect((await call('/tenant/get_settings', {}, { apiKey })).body.results).toEqual({
      success: true,
      settings: { redirectUris: [], webhook: null, agents: DEFAULT_AGENTS },
    });
    const uris = ['https://app.example.com/connected', 'http://localhost:8080/cb', 'http://127.0.0.1:9000/done?x=1'];
    expect((await settings(apiKey, { redirectUris: uris })).body.results.settings.redirectUris).toEqual(uris);
    const withHook = await settings(apiKey, { webhook: { url: `${receiver.url}/keep`, events: ['connection.connected'] } });
    expect(withHook.body.results.settings).toEqual({
      redirectUris: uris,
      webhook: { url: `${receiver.url}/keep`, events: ['connection.connected'] },
      agents: DEFAULT_AGENTS,
    });
    const read = await call('/tenant/get_settings', {}, { apiKey });
    expect(read.body.results.settings).toEqual(withHook.body.results.settings);
    expect(read.text).not.toContain('whsec_');
    expect((await settings(apiKey, { webhook: null })).body.results.settings).toEqual({ redirectUris: uris, webhook: null, agents: DEFAULT_AGENTS });
  });

  it.each([
    ['a plain http: redirect URI that is not local', { redirectUris: ['http://app.example.com/cb'] }, 'redirectUris.0'],
    ['a redirect URI with a fragment', { redirectUris: ['https://app.example.com/cb#x'] }, 'redirectUris.0'],
    ['a relative redirect URI', { redirectUris: ['/cb'] }, 'redirectUris.0'],
    ['a repeated redirect URI', { redirectUris: ['https://a.example.com/', 'https://a.example.com/'] }, 'redirectUris'],
    ['21 redirect URIs', { redirectUris: Array.from({ length: 21 }, (_, index) => `https://a.example.com/${index}`) }, 'redirectUris'],
    ['a webhook URL with credentials', { webhook: { url: 'https://user:pass@hooks.example.com/' } }, 'webhook.url'],
    ['a webhook on a private network', { webhook: { url: 'https://10.1.2.3/hook' } }, 'webhook.url'],
    ['the cloud metadata address', { webhook: { url: 'http://169.254.169.254/latest' } }, 'webhook.url'],
    ['an unknown event type', { webhook: { url: 'https://hooks.example.com/', events: ['user.deleted'] } }, 'webhook.events.0'],
    ['an unknown field', { webhooks: {} }, ''],
    ['an agents mode that is none', { agents: { writes: 'sometimes' } }, 'agents.writes'],
    ['an allowed origin with a path', { agents: { allowedOrigins: ['https://app.example.com/agent'] } }, 'agents.allowedOrigins.0'],
  ])('refuse %s with a 400 that names it, and change nothing', async (_, body, path) => {
    const apiKey = await newTenant();
    await settings(apiKey, { redirectUris: ['https://kept.example.com/'] });
    const response = await settings(apiKey, body);
    expect(response.status).toBe(400);
    expect(response.body.results.code).toBe('INVALID_REQUEST');
    expect(response.body.results.details.map((detail: { path: string }) => detail.path)).toContain(path);
    expect((await call('/tenant/get_settings', {}, { apiKey })).body.results.settings).toEqual({
      redirectUris: ['https://kept.example.com/'],
      webhook: null,
      agents: DEFAULT_AGENTS,
    });
  });

  it('show the secret once when the webhook is first set, keep it when the URL changes, and issue a new one on rotation', async () => {
    const { apiKey, secret } = await tenantWithWebhook('rotate');
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    const moved = await settings(apiKey, { webhook: { url: `${receiver.url}/rotate-2` } });
    expect(moved.body.results).not.toHaveProperty('webhookSecret');
    const rotated = await settings(apiKey, { rotateWebhookSecret: true });
    expect(rotated.body.results.webhookSecret).toMatch(/^whsec_/);
    expect(rotated.body.results.webhookSecret).not.toBe(secret);
    const id = await sendTest(apiKey);
    const [delivery] = await eventually(async () => (deliveriesOf(id).length > 0 ? deliveriesOf(id) : undefined));
    expect(() => verifyWithPackage(rotated.body.results.webhookSecret, delivery as ReceivedRequest)).not.toThrow();
    expect(() => verifyWithPackage(secret, delivery as ReceivedRequest)).toThrow();
    expect((await settings(await newTenant(), { rotateWebhookSecret: true })).status).toBe(400);
  });

  it('belong to their tenant: another key sees neither the settings nor the events', async () => {
    const { apiKey } = await tenantWithWebhook('tenant-a');
    const id = await sendTest(apiKey);
    const other = await newTenant();
    expect((await call('/tenant/get_settings', {}, { apiKey: other })).body.results.settings.webhook).toBeNull();
    expect(await events(other)).toEqual([]);
    expect((await call('/tenant/send_test_webhook', {}, { apiKey: other })).status).toBe(404);
    await eventOf(apiKey, id, (event) => event.status === 'delivered');
  });
});

function verifyWithPackage(secret: string, delivery: ReceivedRequest): unknown {
  // the package judges the timestamp by Date.now(); the stack's clock may run ahead of this process's
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(Number(delivery.headers['webhook-timestamp']) * 1000);
  try {
    return new Webhook(secret).verify(delivery.body, delivery.headers as Record<string, string>);
  } finally {
    vi.useRealTimers();
  }
}

describe('webhook delivery', () => {
  it('signs a test event that the package’s verifier and an independent HMAC both accept, and lists it delivered', async () => {
    const { apiKey, secret } = await tenantWithWebhook('signed');
    const id = await sendTest(apiKey);
    expect(id).toMatch(/^msg_[0-9a-f]{32}$/);
    const event = await eventOf(apiKey, id, (entry) => entry.status === 'delivered');
    expect(event).toMatchObject({ type: 'webhook.test', status: 'delivered', attempts: 1, lastStatus: 200, lastAttemptAt: expect.any(String) });
    const [delivery, ...more] = deliveriesOf(id);
    expect(more).toEqual([]);
    expect(delivery?.method).toBe('POST');
    expect(delivery?.url).toBe('/signed');
    expect(delivery?.headers['content-type']).toBe('application/json');
    const body = JSON.parse(delivery?.body ?? '{}');
    expect(body).toEqual({ type: 'webhook.test', timestamp: event.createdAt, data: { message: expect.any(String) } });
    expect(verifyWithPackage(secret, delivery as ReceivedRequest)).toEqual(body);
    const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
    const expected = createHmac('sha256', key).update(`${id}.${delivery?.headers['webhook-timestamp']}.${delivery?.body}`).digest('base64');
    expect(delivery?.headers['webhook-signature']).toBe(`v1,${expected}`);
  });

  it('retries a receiver that answers 500 twice: three deliveries with the same webhook-id, each signed anew', async () => {
    const { apiKey, secret } = await tenantWithWebhook('flaky');
    receiver.answers.push({ status: 500 }, { status: 500 });
    const id = await sendTest(apiKey);
    const event = await eventOf(apiKey, id, (entry) => entry.status === 'delivered');
    expect(event).toMatchObject({ attempts: 3, lastStatus: 200 });
    const deliveries = deliveriesOf(id);
    expect(deliveries).toHaveLength(3);
    for (const delivery of deliveries) expect(() => verifyWithPackage(secret, delivery)).not.toThrow();
    // each attempt carries its own timestamp (the retries are at least a second apart)
    expect(new Set(deliveries.map((delivery) => delivery.headers['webhook-timestamp'])).size).toBe(3);
    expect(new Set(deliveries.map((delivery) => delivery.headers['webhook-signature'])).size).toBe(3);
  });

  it('gives up on a receiver that hangs after the timeout, and tries again', async () => {
    const { apiKey } = await tenantWithWebhook('hangs');
    receiver.answers.push({ status: 0, hang: true });
    const id = await sendTest(apiKey);
    const event = await eventOf(apiKey, id, (entry) => entry.status === 'delivered');
    expect(event).toMatchObject({ attempts: 2, lastStatus: 200 });
    expect(deliveriesOf(id)).toHaveLength(2);
  });

  it('marks the event failed after the last attempt of the schedule, never dropping it', async () => {
    const { apiKey } = await tenantWithWebhook('down');
    receiver.answers.push(...Array.from({ length: 4 }, () => ({ status: 503 })));
    const id = await sendTest(apiKey);
    const event = await eventOf(apiKey, id, (entry) => entry.status === 'failed');
    expect(event).toMatchObject({ attempts: 4, lastStatus: 503 }); // the first attempt and the three retries of WEBHOOK_RETRY_DELAYS=1,1,1
    expect(deliveriesOf(id)).toHaveLength(4);
  });

  it('disables the tenant’s webhook on 410 Gone: the event fails and nothing more is sent', async () => {
    const { apiKey } = await tenantWithWebhook('gone');
    receiver.answers.push({ status: 410 });
    const id = await sendTest(apiKey);
    await eventOf(apiKey, id, (entry) => entry.status === 'failed' && entry.lastStatus === 410);
    expect((await call('/tenant/get_settings', {}, { apiKey })).body.results.settings.webhook).toMatchObject({ url: `${receiver.url}/gone`, disabled: true });
    const again = await call('/tenant/send_test_webhook', {}, { apiKey });
    expect(again.status).toBe(404);
    expect(again.body.results.code).toBe('NOT_FOUND');
    expect(deliveriesOf(id)).toHaveLength(1);
    // setting the webhook again enables it
    await settings(apiKey, { webhook: { url: `${receiver.url}/gone` } });
    expect((await call('/tenant/send_test_webhook', {}, { apiKey })).status).toBe(200);
  });

  it('lists events newest first in pages, with an opaque cursor that refuses a forged value', async () => {
    const { apiKey } = await tenantWithWebhook('paged');
    const ids: string[] = [];
    for (let index = 0; index < 3; index++) ids.push(await sendTest(apiKey));
    const listed = (await events(apiKey)).map((event) => event.id);
    expect(listed).toEqual([...ids].reverse());
    const forged = await call('/tenant/list_webhook_events', { pagination: Buffer.from('{"before":"TENANT#x"}').toString('base64url') }, { apiKey });
    expect(forged.status).toBe(400);
  });
});
