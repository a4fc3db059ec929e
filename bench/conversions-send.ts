import { readFileSync } from 'node:fs';
import { DEMO_CONVERSION_RULE_ID } from '../local/sandbox/professional-conversions.ts';
import { DEMO_DATASET_ID } from '../local/sandbox/social-conversions.ts';

/**
 * /conversions/send at its limit (docs/conversions.md, "Delivery of CRM events"), against `npm start`'s
 * stack in its own process: 10,000 events of CRM contacts, each with an e-mail and a click id, to a
 * stage mapped on all three platforms. Counted from the sandboxes' records: the platform requests the
 * job made (goal: 10 social, 2 professional, 5 search ads, plus Google's status reads), and the stack
 * process's memory (VmRSS before and after, VmHWM) for 1,000 events, then for 10,000. The sandboxes in
 * that process keep every event they receive, so part of the growth is theirs.
 */
type Row = [string, string, string];

async function post(url: string, path: string, apiKey: string, body: unknown) {
  const response = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return (await response.json()) as any;
}

const memoryMb = (pid: number) => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: Math.round(kb('VmRSS') / 1024), peak: Math.round(kb('VmHWM') / 1024) };
};

async function requests(sandbox: string, from: number, path: RegExp) {
  const recorded = (await (await fetch(`${sandbox}/__sandbox/requests?from=${from}`)).json()) as Array<{ method: string; path: string }>;
  return recorded.filter((request) => path.test(request.path)).length;
}
const requestCount = async (sandbox: string) => ((await (await fetch(`${sandbox}/__sandbox/requests?count=1`)).json()) as { count: number }).count;

async function sendAndWait(stack: { url: string }, apiKey: string, batch: string, count: number) {
  const occurredAt = new Date(Date.now() - 3_600_000).toISOString();
  const events = Array.from({ length: count }, (_, n) => ({
    eventId: `bench_${batch}_${n}`,
    stage: 'Qualified',
    occurredAt,
    user: {
      email: `person.${batch}.${n}@example.com`,
      phone: `+1 415 555 ${String(n % 10_000).padStart(4, '0')}`,
      clickIds: { gclid: `Cj0KCQbench${batch}${n}_BwE` },
    },
  }));
  const started = performance.now();
  const sent = await post(stack.url, '/conversions/send', apiKey, { userId: 'demo-user', events });
  const answeredMs = performance.now() - started;
  const jobId = sent.results?.jobId as string;
  if (!jobId) throw new Error(`send failed: ${JSON.stringify(sent)}`);
  for (;;) {
    const { job } = (await post(stack.url, '/jobs/get_job', apiKey, { jobId })).results;
    if (job.status === 'succeeded') return { job, answeredMs, endedMs: performance.now() - started };
    if (job.status === 'failed') throw new Error(`the job failed: ${JSON.stringify(job.error)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

export async function sendFigures(stack: { url: string; sandboxes: Record<string, string>; pid: number }, apiKey: string): Promise<Row[]> {
  await post(stack.url, '/conversions/set_stages', apiKey, {
    userId: 'demo-user',
    crmName: 'HubSpot',
    stages: [
      {
        stage: 'Qualified',
        social: { datasetId: DEMO_DATASET_ID, eventName: 'QualifiedLead' },
        professional: { conversionRuleId: String(DEMO_CONVERSION_RULE_ID) },
        searchads: { conversionActionId: '6543210987' },
      },
    ],
  });
  const { social, professional, searchads } = stack.sandboxes as Record<'social' | 'professional' | 'searchads', string>;
  const rows: Row[] = [];
  for (const count of [1_000, 10_000]) {
    const from = { social: await requestCount(social), professional: await requestCount(professional), searchads: await requestCount(searchads) };
    const before = memoryMb(stack.pid);
    const { job, answeredMs, endedMs } = await sendAndWait(stack, apiKey, String(count), count);
    const after = memoryMb(stack.pid);
    const made = {
      social: await requests(social, from.social, /\/events$/),
      professional: await requests(professional, from.professional, /\/conversionEvents$/),
      ingest: await requests(searchads, from.searchads, /\/events:ingest$/),
      status: await requests(searchads, from.searchads, /requestStatus:retrieve$/),
    };
    const delivered = ['social', 'professional', 'searchads'].map((platform) => job.result.platforms[platform]?.delivered ?? 0).join(' / ');
    rows.push(
      [
        `conversions: send ${count.toLocaleString('en')} events, platform requests`,
        `${made.social} / ${made.professional} / ${made.ingest} (+${made.status} status reads)`,
        `social / professional / search ads; delivered ${delivered}`,
      ],
      [
        `conversions: send ${count.toLocaleString('en')} events, time`,
        `${(answeredMs / 1000).toFixed(2)} s to 202, ${(endedMs / 1000).toFixed(1)} s to the job's end`,
        'Google’s first status read waits 5 s',
      ],
      [
        `conversions: send ${count.toLocaleString('en')} events, stack memory`,
        `RSS ${before.rss} → ${after.rss} MB, peak ${after.peak} MB`,
        'the whole npm start process (its sandboxes keep what they receive)',
      ],
    );
  }
  return rows;
}
