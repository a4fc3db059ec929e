import { demoLeadForm } from '../local/sandbox/demo-data.ts';
import { sha256Hex } from '../shared/audiences/sha256.ts';
import { socialUserDataOfLead } from '../shared/conversions/identifiers.ts';
import { DEMO_DATASET_ID } from '../local/sandbox/social-conversions.ts';

/**
 * A reported outcome's way to the platform (docs/conversions.md), against `npm start`'s stack in its
 * own process: N leads of the demo user's form arrive through the platform's signed webhook, then each
 * lead's outcome is reported, one after another, and timed from the report's POST until the social
 * sandbox holds its event (the platform's 2xx is its answer to that request): p50 and p99. The
 * sandbox's record is read every 2 ms, which bounds the figures' resolution.
 */
type Row = [string, string, string];
const LEADS = 40;

async function post(url: string, path: string, apiKey: string, body: unknown) {
  const response = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return (await response.json()) as any;
}

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))] as number;

export async function conversionFigures(stack: { url: string; sandboxes: Record<string, string> }, apiKey: string): Promise<Row[]> {
  const social = stack.sandboxes.social as string;
  const form = await post(stack.url, '/social/create_lead_form', apiKey, demoLeadForm('demo-user', 'Conversions bench'));
  const made = (await (
    await fetch(`${social}/__sandbox/leads`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ formId: form.results.leadFormId, count: LEADS }),
    })
  ).json()) as { leadIds: string[] };
  for (const started = Date.now(); ; ) {
    const listed = await post(stack.url, '/leads/list_leads', apiKey, { userId: 'demo-user', platform: 'social', limit: 100 });
    if (made.leadIds.every((leadId) => listed.results.leads.some((entry: { lead: { leadId: string } }) => entry.lead.leadId === leadId))) break;
    if (Date.now() - started > 60_000) throw new Error('the leads did not arrive');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await post(stack.url, '/conversions/set_stages', apiKey, {
    userId: 'demo-user',
    crmName: 'HubSpot',
    stages: [{ stage: 'Qualified', social: { datasetId: DEMO_DATASET_ID, eventName: 'QualifiedLead' } }],
  });
  const received = async () =>
    ((await (await fetch(`${social}/__sandbox/conversions`)).json()) as Array<{ event: { event_id: string } }>).map((entry) => entry.event.event_id);
  const times: number[] = [];
  for (const leadId of made.leadIds) {
    const started = performance.now();
    const reported = await post(stack.url, '/leads/report_outcome', apiKey, { userId: 'demo-user', leadId, stage: 'Qualified' });
    const [eventId] = reported.results.eventIds as string[];
    while (!(await received()).includes(eventId as string)) await new Promise((resolve) => setTimeout(resolve, 2));
    times.push(performance.now() - started);
  }
  return [
    ['conversions: report_outcome → platform 2xx, p50', `${percentile(times, 50).toFixed(1)} ms`, `${LEADS} leads one after another, on npm start's stack`],
    ['conversions: report_outcome → platform 2xx, p99', `${percentile(times, 99).toFixed(1)} ms`, 'the sandbox read every 2 ms'],
  ];
}

/**
 * Hashing a conversion's identifiers (shared/conversions/identifiers.ts): 100,000 leads' e-mail and
 * phone normalized and hashed as the social platform takes them, in events per second, against raw
 * SHA-256 of the same already-normalized values (two digests an event either way). One untimed pair
 * warms both up, then five pairs, each the identifiers then raw hashing back to back; the figure is the
 * median of the pair ratios.
 */
const HASHED_EVENTS = 100_000;

export function hashingFigures(): Row[] {
  const leads = Array.from({ length: HASHED_EVENTS }, (_, index) => ({
    leadId: String(1_357_924_680_000_000 + index),
    platform: 'social' as const,
    formId: '1',
    createdAt: '2026-11-28T10:00:00.000Z',
    isTest: false,
    fields: { email: ` Person.${index}@Example.com `, phone: `+1 (555) ${String(index % 1000).padStart(3, '0')}-${String(index % 10_000).padStart(4, '0')}` },
    answers: [],
    consents: [],
  }));
  const normalized = leads.map((lead) => [lead.fields.email.trim().toLowerCase(), lead.fields.phone.replace(/\D/g, '')] as const);
  const ratios: number[] = [];
  let identifierRate = 0;
  // one untimed pair first: both sides run compiled, as they do in a worker that has hashed before
  for (let pair = -1; pair < 5; pair++) {
    let started = performance.now();
    let sink = 0;
    for (const lead of leads) sink += socialUserDataOfLead(lead).em?.[0]?.length ?? 0;
    const identifiers = performance.now() - started;
    started = performance.now();
    for (const [email, phone] of normalized) sink += sha256Hex(email).length + sha256Hex(phone).length;
    const raw = performance.now() - started;
    if (sink === 0) throw new Error('nothing was hashed');
    if (pair < 0) continue;
    ratios.push(raw / identifiers);
    identifierRate = Math.max(identifierRate, HASHED_EVENTS / (identifiers / 1000));
  }
  ratios.sort((a, b) => a - b);
  return [
    [
      'conversions: identifiers hashed',
      `${Math.round(identifierRate).toLocaleString('en-US')} events/s`,
      'e-mail and phone normalized and SHA-256 hashed, best of 5',
    ],
    [
      'conversions: identifiers / raw SHA-256',
      `${(ratios[2] as number).toFixed(2)}×`,
      `goal ≥ 0.7; median of 5 pairs (${(ratios[0] as number).toFixed(2)}–${(ratios[4] as number).toFixed(2)})`,
    ],
  ];
}
