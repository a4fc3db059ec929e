import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scriptedServer } from '../helpers/scripted-server.ts';

/**
 * The cloud's policy for webhook URLs (no OUTBOUND_ALLOWED_NETWORKS, as deployed): public addresses
 * only, https: only, checked when set and again when each delivery connects.
 */
let receiver: Awaited<ReturnType<typeof scriptedServer>>;
let InvalidRequest: typeof import('../../shared/core/errors.ts').InvalidRequest;
let checkWebhookUrl: typeof import('../../shared/webhooks/receiver-address.ts').checkWebhookUrl;
let postWebhook: typeof import('../../shared/webhooks/post.ts').postWebhook;
beforeAll(async () => {
  delete process.env.OUTBOUND_ALLOWED_NETWORKS;
  // the configuration as deployed: this file runs in a process of its own (vitest.config.ts, unit-fresh), so nothing read it before
  ({ InvalidRequest } = await import('../../shared/core/errors.ts'));
  ({ checkWebhookUrl } = await import('../../shared/webhooks/receiver-address.ts'));
  ({ postWebhook } = await import('../../shared/webhooks/post.ts'));
  receiver = await scriptedServer(() => ({ status: 200 }));
});
afterAll(() => receiver.close());

const refusal = (url: string) =>
  checkWebhookUrl(url).then(
    () => 'accepted',
    (error: unknown) => (error instanceof InvalidRequest ? (error.extra.details as Array<{ message: string }>)[0]?.message : String(error)),
  );

describe('webhook URLs in the cloud', () => {
  it.each([
    ['loopback', 'https://127.0.0.1/hook'],
    ['loopback by name', 'https://localhost/hook'],
    ['IPv6 loopback', 'https://[::1]/hook'],
    ['a private network', 'https://10.20.30.40/hook'],
    ['another private network', 'https://192.168.1.10/hook'],
    ['the metadata service', 'https://169.254.169.254/latest'],
    ['an IPv4-mapped loopback', 'https://[::ffff:127.0.0.1]/hook'],
  ])('refuse %s', async (_, url) => {
    expect(await refusal(url)).toBe('it must resolve to public internet addresses only');
  });

  it('take a public address over https:, and refuse it over plain http:', async () => {
    expect(await refusal('https://93.184.215.14/hook')).toBe('accepted');
    expect(await refusal('http://93.184.215.14/hook')).toBe('it must use https:');
  });

  it('refuse at delivery time a receiver that is not public, sending nothing', async () => {
    const outcome = await postWebhook(`${receiver.url}/hook`, { 'webhook-id': 'msg_1' }, '{}');
    expect(outcome).toEqual({ status: null, reason: 'not-public' });
    const byName = await postWebhook(`${receiver.url.replace('127.0.0.1', 'localhost')}/hook`, { 'webhook-id': 'msg_1' }, '{}');
    expect(byName).toEqual({ status: null, reason: 'not-public' });
    expect(receiver.received).toEqual([]);
  });
});
