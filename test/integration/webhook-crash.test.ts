import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { folderClock, runAdmin, startChildStack, type ChildStack } from '../helpers/child-stack.ts';
import { eventually } from '../helpers/eventually.ts';
import { scriptedServer } from '../helpers/scripted-server.ts';

/**
 * The delivery worker's process killed (SIGKILL) while a delivery is in flight: the message it held
 * comes back from the queue once its visibility runs out, in the restarted stack on the same data
 * folder, and the event is delivered with the same webhook-id. Nothing either run prints holds the
 * webhook secret.
 */
const dataDir = mkdtempSync(join(tmpdir(), 'ad-api-webhook-crash-'));
const demoKey = 'webhook-crash-demo-key-0123456789';
let receiver: Awaited<ReturnType<typeof scriptedServer>>;
const stacks: ChildStack[] = [];
afterAll(async () => {
  for (const stack of stacks) await stack.stop().catch(() => undefined);
  await receiver?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const post = async (url: string, path: string, apiKey: string, body: unknown) => {
  const response = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, text: await response.text() };
};

describe('a webhook delivery interrupted by a crash', () => {
  it('is delivered after the restart, with the same id, and the secret is in no output', async () => {
    receiver = await scriptedServer(() => ({ status: 200 }));
    receiver.answers.push({ status: 0, hang: true }); // the first attempt never gets its answer
    const created = await runAdmin(dataDir, ['create-api-key', '--tenant', 'crash']);
    const apiKey = (JSON.parse(created.stdout.trim()) as { apiKey: string }).apiKey;

    const first = await startChildStack(dataDir, demoKey);
    stacks.push(first);
    const set = await post(first.url, '/tenant/update_settings', apiKey, { webhook: { url: `${receiver.url}/hook` } });
    expect(set.status, set.text).toBe(200);
    const secret = JSON.parse(set.text).results.webhookSecret as string;
    const sent = await post(first.url, '/tenant/send_test_webhook', apiKey, {});
    const id = JSON.parse(sent.text).results.event.id as string;
    await eventually(async () => (receiver.received.length === 1 ? true : undefined), 15_000, 'the first attempt');
    await first.kill();

    // back after the delivery queue's visibility (on the stack's clock): the message the killed run held is delivered again
    const second = await startChildStack(dataDir, demoKey, folderClock().pastVisibilityOf('WebhookDeliveries'));
    stacks.push(second);
    const delivered = await eventually(
      async () => {
        const listed = JSON.parse((await post(second.url, '/tenant/list_webhook_events', apiKey, {})).text).results.events as Array<Record<string, unknown>>;
        return listed.find((event) => event.id === id && event.status === 'delivered');
      },
      20_000,
      'the redelivery',
    );
    expect(delivered).toMatchObject({ attempts: 1, lastStatus: 200 }); // the killed attempt was never recorded
    expect(receiver.received.map((request) => request.headers['webhook-id'])).toEqual([id, id]);
    for (const output of [first.output(), second.output()]) expect(output).not.toContain(secret.slice('whsec_'.length));
    expect(await second.stop()).toBe(0);
  }, 90_000);
});
