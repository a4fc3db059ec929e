import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SANDBOX_APP_CREDENTIALS } from '../local/sandbox/demo-data.ts';
import { socialSignatureOf } from '../shared/platforms/social/lead-webhooks.ts';

/**
 * Leads through the platform-webhook route and the queue (docs/leads.md), against `npm start`'s stack
 * in its own process: N leads of one form, each its own signed `leadgen` POST (as the platform sends
 * them), C at a time. Measured: leads per second from the first POST to the last `lead.received` at
 * our receiver, and each lead's time from its POST to the receiver's 2xx (p50, p99); against a fair
 * floor, a server that does the least any receiver must: store the raw body (appends it to a file),
 * read the lead from the platform as we must (the same GET of the same sandbox), and forward it to the
 * same receiver. And per lead: the platform reads, from the sandbox's record of what it received (goal:
 * 1 per tenant), and the store requests, counted by the local store's front (goal: at most 7).
 */
type Row = [string, string, string];
const LEADS = 300;
const CONCURRENCY = 10;
const ONE_BY_ONE = 30;

interface Receiver {
  url: string;
  arrivals: Map<string, number>;
  close(): Promise<void>;
}

/** A webhook receiver that notes when each lead arrived (by its id, from our lead.received or the floor's raw body). */
async function receiver(): Promise<Receiver> {
  const arrivals = new Map<string, number>();
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const id = /"leadId":"(\d+)"/.exec(text)?.[1] ?? /"leadgen_id":"(\d+)"/.exec(text)?.[1];
      if (id && !arrivals.has(id)) arrivals.set(id, performance.now());
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, arrivals, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/**
 * The floor: what any receiver of a platform webhook must do at least: store the raw body, read the
 * lead it names from the platform (`readLead`: the same request our service makes), then forward it.
 */
async function floorServer(forwardTo: string, file: string, readLead: (leadId: string) => Promise<string>): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      const body = Buffer.concat(chunks);
      appendFileSync(file, body);
      response.writeHead(200).end();
      const leadId = /"leadgen_id":"(\d+)"/.exec(body.toString('utf8'))?.[1] ?? '';
      const lead = await readLead(leadId).catch(() => '');
      await fetch(forwardTo, { method: 'POST', body: JSON.stringify({ leadgen_id: leadId, lead }) }).catch(() => undefined);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const leadBody = (leadId: string, formId: string, pageId: string) =>
  JSON.stringify({
    object: 'page',
    entry: [{ id: pageId, time: 1, changes: [{ field: 'leadgen', value: { leadgen_id: leadId, page_id: pageId, form_id: formId, created_time: 1 } }] }],
  });

/** Every lead posted, C at a time; when each POST was sent, by lead id. */
async function postAll(url: string, leadIds: string[], bodyOf: (leadId: string) => string): Promise<Map<string, number>> {
  const sent = new Map<string, number>();
  const queue = [...leadIds];
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let leadId = queue.shift(); leadId; leadId = queue.shift()) {
        const body = bodyOf(leadId);
        sent.set(leadId, performance.now());
        const response = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-hub-signature-256': socialSignatureOf(body, SANDBOX_APP_CREDENTIALS.SOCIAL_APP_SECRET) },
          body,
        });
        if (response.status !== 200) throw new Error(`the webhook route answered ${response.status}`);
      }
    }),
  );
  return sent;
}

async function untilArrived(arrivals: Map<string, number>, count: number, what: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (arrivals.size < count) {
    if (Date.now() > deadline) throw new Error(`${what}: ${arrivals.size} of ${count} arrived`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function figures(sent: Map<string, number>, arrived: Map<string, number>) {
  const latencies = [...sent].map(([id, at]) => (arrived.get(id) as number) - at).sort((a, b) => a - b);
  const pick = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] as number;
  const first = Math.min(...sent.values());
  const last = Math.max(...arrived.values());
  return { perSecond: (sent.size / (last - first)) * 1000, p50: pick(0.5), p99: pick(0.99) };
}

/** The store requests the stack made so far (local/store-requests.ts), through the sandbox's control endpoint. */
async function storeRequests(sandbox: string): Promise<{ total: number; byOperation: Record<string, number> }> {
  return (await (await fetch(`${sandbox}/__sandbox/store-requests`)).json()) as { total: number; byOperation: Record<string, number> };
}

async function post(url: string, path: string, apiKey: string, body: unknown) {
  const response = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
    body: JSON.stringify(body),
  });
  return (await response.json()) as { results: Record<string, unknown> };
}

export async function leadFigures(stack: { url: string; sandboxes: Record<string, string> }, apiKey: string): Promise<Row[]> {
  const social = stack.sandboxes.social as string;
  const ours = await receiver();
  const floorArrivals = await receiver();
  const dir = mkdtempSync(join(tmpdir(), 'ad-api-bench-leads-'));
  // the floor reads each lead as our service does: the first lead read our service made, with the floor's lead id
  let leadRead: { path: string; query: string } | undefined;
  const floor = await floorServer(floorArrivals.url, join(dir, 'bodies'), async (leadId) => {
    if (!leadRead) throw new Error('no lead read of ours to copy');
    const answer = await fetch(`${social}${leadRead.path.replace(/\/\d+$/, `/${leadId}`)}${leadRead.query}`);
    return answer.text();
  });
  try {
    await post(stack.url, '/tenant/update_settings', apiKey, { webhook: { url: `${ours.url}/`, events: ['lead.received'] } });
    const form = await post(stack.url, '/social/create_lead_form', apiKey, {
      userId: 'demo-user',
      leadsFormName: 'Bench form',
      language: 'EN_US',
      form_type: 'HIGHER_INTENT',
      privacyPolicyUrl: 'https://www.example.com/privacy',
      privacyPolicyName: 'Privacy policy',
      leadFormQuestions: [{ type: 'FULL_NAME' }, { type: 'EMAIL' }],
      thankYouPage: { title: 'Thanks!', body: 'We will call you.', button_text: 'Visit', button_type: 'VIEW_WEBSITE', website_url: 'https://www.example.com' },
    });
    const formId = form.results.leadFormId as string;
    const made = (await (
      await fetch(`${social}/__sandbox/leads`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ formId, count: LEADS, webhook: false }),
      })
    ).json()) as { leadIds: string[] };
    const pageId = '104857392018465';
    await fetch(`${social}/__sandbox/requests`, { method: 'DELETE' });

    const storeBefore = await storeRequests(social);
    const sent = await postAll(`${stack.url}/platform-webhooks/social`, made.leadIds, (id) => leadBody(id, formId, pageId));
    await untilArrived(ours.arrivals, LEADS, 'lead.received');
    const service = figures(sent, ours.arrivals);
    // the deliveries' last writes (each attempt's record) follow the receiver's 2xx: counted once they are done
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const storeAfter = await storeRequests(social);
    const requests = (await (await fetch(`${social}/__sandbox/requests`)).json()) as Array<{ method: string; path: string; rawQuery?: string }>;
    const reads = requests.filter((request) => request.method === 'GET' && made.leadIds.some((id) => request.path.endsWith(`/${id}`)));
    const leadReads = reads.length;
    leadRead = { path: String(reads[0]?.path), query: String(reads[0]?.rawQuery ?? '') };
    const perOperation = Object.entries(storeAfter.byOperation)
      .map(([operation, count]) => [operation, (count - (storeBefore.byOperation[operation] ?? 0)) / LEADS] as const)
      .filter(([, perLead]) => perLead > 0)
      .map(([operation, perLead]) => `${operation} ${perLead.toFixed(2)}`)
      .join(', ');

    const floorSent = await postAll(floor.url, made.leadIds, (id) => leadBody(id, formId, pageId));
    await untilArrived(floorArrivals.arrivals, LEADS, 'the floor');
    const bare = figures(floorSent, floorArrivals.arrivals);

    // one lead at a time (each waits for the last to arrive): the path's own latency, with no backlog
    const single = (await (
      await fetch(`${social}/__sandbox/leads`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ formId, count: ONE_BY_ONE, webhook: false }),
      })
    ).json()) as { leadIds: string[] };
    const alone = { ours: new Map<string, number>(), floor: new Map<string, number>() };
    for (const leadId of single.leadIds) {
      const at = (await postAll(`${stack.url}/platform-webhooks/social`, [leadId], (id) => leadBody(id, formId, pageId))).get(leadId) as number;
      alone.ours.set(leadId, at);
      await untilArrived(ours.arrivals, ours.arrivals.size + (ours.arrivals.has(leadId) ? 0 : 1), 'a lead alone');
      const floorAt = (await postAll(floor.url, [leadId], (id) => leadBody(id, formId, pageId))).get(leadId) as number;
      alone.floor.set(leadId, floorAt);
    }
    await untilArrived(floorArrivals.arrivals, LEADS + ONE_BY_ONE, 'the floor, alone');
    const oneByOne = figures(alone.ours, ours.arrivals);
    const floorOneByOne = figures(alone.floor, floorArrivals.arrivals);

    return [
      [
        'leads: through the webhook route and queue',
        `${Math.round(service.perSecond)} leads/s`,
        `${LEADS} leads, ${CONCURRENCY} platform POSTs at a time; the floor (store and forward the raw body) ${Math.round(bare.perSecond)}/s`,
      ],
      [
        'leads: platform POST to our receiver’s 2xx',
        `p50 ${service.p50.toFixed(1)} ms, p99 ${service.p99.toFixed(1)} ms`,
        `floor p50 ${bare.p50.toFixed(1)} ms, p99 ${bare.p99.toFixed(1)} ms; ratio p50 ${(service.p50 / bare.p50).toFixed(1)}×, p99 ${(service.p99 / bare.p99).toFixed(1)}×`,
      ],
      [
        'leads: one at a time, POST to 2xx',
        `p50 ${oneByOne.p50.toFixed(1)} ms, p99 ${oneByOne.p99.toFixed(1)} ms`,
        `${ONE_BY_ONE} leads, each after the last arrived; floor p50 ${floorOneByOne.p50.toFixed(1)} ms; ratio p50 ${(oneByOne.p50 / floorOneByOne.p50).toFixed(1)}×`,
      ],
      ['leads: platform reads per lead', (leadReads / LEADS).toFixed(2), 'one tenant subscribed: goal 1 (the form’s questions are read once and kept)'],
      [
        'leads: store requests per lead',
        ((storeAfter.total - storeBefore.total) / LEADS).toFixed(2),
        `end to end, counted at the local store’s front, goal ≤ 7: ${perOperation}`,
      ],
    ];
  } finally {
    await ours.close();
    await floorArrivals.close();
    await floor.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
