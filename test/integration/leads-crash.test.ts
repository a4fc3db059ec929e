import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_CONNECTIONS, demoLeadForm } from '../../local/sandbox/demo-data.ts';
import { folderClock, runAdmin, startChildStack, type ChildStack } from '../helpers/child-stack.ts';
import { eventually } from '../helpers/eventually.ts';
import { scriptedServer } from '../helpers/scripted-server.ts';

/**
 * The process killed (SIGKILL) after a lead was stored and while its `lead.received` delivery was in
 * flight: the restarted stack on the same data folder delivers it, with the same webhook-id, and the
 * lead is stored once (docs/leads.md, "Once, never lost").
 */
const dataDir = mkdtempSync(join(tmpdir(), 'ad-api-leads-crash-'));
const demoKey = 'leads-crash-demo-key-0123456789';
let receiver: Awaited<ReturnType<typeof scriptedServer>>;
const stacks: ChildStack[] = [];
afterAll(async () => {
  for (const stack of stacks) await stack.stop().catch(() => undefined);
  await receiver?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const post = async (url: string, path: string, body: unknown, apiKey?: string) => {
  const response = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { ...(apiKey ? { 'x-api-key': apiKey } : {}), 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return JSON.parse(await response.text());
};

describe('a lead whose delivery a crash interrupted', () => {
  it('is delivered after the restart with the same id, and stored once', async () => {
    receiver = await scriptedServer(() => ({ status: 200 }));
    receiver.answers.push({ status: 0, hang: true }); // the first delivery never gets its answer
    const created = await runAdmin(dataDir, ['create-api-key', '--tenant', 'leads-crash']);
    const apiKey = (JSON.parse(created.stdout.trim()) as { apiKey: string }).apiKey;

    const first = await startChildStack(dataDir, demoKey);
    stacks.push(first);
    await post(first.url, '/tenant/update_settings', { webhook: { url: `${receiver.url}/leads`, events: ['lead.received'] } }, apiKey);
    const userId = (await post(first.url, '/users/create_user', { connections: { social: { ...DEMO_CONNECTIONS.social } } }, apiKey)).results.userId as string;
    const form = await post(first.url, '/social/create_lead_form', demoLeadForm(userId, 'Crash form'), apiKey);
    const social = (JSON.parse(readFileSync(join(dataDir, 'sandboxes.json'), 'utf8')) as { social: string }).social;
    const [leadId] = (await post(social, '/__sandbox/leads', { formId: form.results.leadFormId })).leadIds as [string];
    await eventually(async () => (receiver.received.length === 1 ? true : undefined), 15_000, 'the first delivery of lead.received');
    await first.kill();

    // back after the delivery queue's visibility (on the stack's clock): the message the killed run held is delivered again
    const second = await startChildStack(dataDir, demoKey, folderClock().pastVisibilityOf('WebhookDeliveries'));
    stacks.push(second);
    await eventually(async () => (receiver.received.length >= 2 ? true : undefined), 30_000, 'the redelivery after the restart');
    const deliveries = receiver.received.map((request) => ({ id: request.headers['webhook-id'], lead: JSON.parse(request.body).data.lead.leadId }));
    expect(new Set(deliveries.map((delivery) => delivery.id)).size).toBe(1);
    expect(deliveries.every((delivery) => delivery.lead === leadId)).toBe(true);
    const listed = await post(second.url, '/leads/list_leads', { userId }, apiKey);
    expect(listed.results.leads.map((entry: { lead: { leadId: string } }) => entry.lead.leadId)).toEqual([leadId]);
    // no value of the lead in anything either process printed
    for (const output of [first.output(), second.output()]) expect(output).not.toMatch(/person\d+@example\.com|Sandbox Person/);
    expect(await second.stop()).toBe(0);
  }, 120_000);
});
