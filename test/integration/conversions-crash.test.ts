import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_CONNECTIONS, demoLeadForm } from '../../local/sandbox/demo-data.ts';
import { DEMO_CONVERSION_RULE_ID } from '../../local/sandbox/professional-conversions.ts';
import { DEMO_DATASET_ID } from '../../local/sandbox/social-conversions.ts';
import type { RecordedRequest } from '../../local/sandbox/server.ts';
import { folderClock, postTo, sandboxOf, startChildStack, type ChildStack } from '../helpers/child-stack.ts';
import { eventually } from '../helpers/eventually.ts';

/**
 * A lead's outcome survives a kill -9 of `npm start` while its request is on the wire (docs/conversions.md,
 * "Delivery"): the platform took the event and its answer had not come when the stack died. Started
 * again on its data folder (later than the lease of the run that died), the professional event ends
 * `unknown` and is never sent again (the platform keeps no deduplication of its own); the social one
 * is sent again with the same event id, which the platform counts once.
 */
const dataDir = mkdtempSync(join(tmpdir(), 'ad-api-conversions-crash-'));
const apiKey = 'conversions-crash-test-key-0123456789';
const env = { LOG_LEVEL: 'SILENT' };
/** the restart comes 10 minutes later on the stack's clock: after the lease of the run that died (3 minutes) and its message's visibility (2) */
const clock = folderClock();
let stack: ChildStack | undefined;
beforeAll(async () => {
  stack = await startChildStack(dataDir, apiKey, env);
});
afterAll(async () => {
  await stack?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const post = (path: string, body: unknown) => postTo(stack as ChildStack, apiKey, path, body);
const sandbox = (platform: 'social' | 'professional') => sandboxOf(stack as ChildStack, platform);
const sandboxPost = (platform: 'social' | 'professional', path: string, body: unknown) =>
  fetch(`${sandbox(platform)}/__sandbox/${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then(
    (response) => response.json() as Promise<any>,
  );
const sends = async (platform: 'social' | 'professional', eventId: string) =>
  ((await (await fetch(`${sandbox(platform)}/__sandbox/requests`)).json()) as RecordedRequest[]).filter(
    (request) => request.method === 'POST' && /\/(conversionEvents|events)$/.test(request.path) && request.body.includes(eventId),
  );

/** A lead of the demo user's, arrived through the platform's signed webhook, as docs/leads.md tells it. */
async function arrivedLead(platform: 'social' | 'professional'): Promise<string> {
  let made: { leadIds: string[] };
  if (platform === 'professional') {
    await post('/leads/subscribe', { userId: 'demo-user', platform: 'professional' });
    made = await sandboxPost('professional', 'leads', { accountId: DEMO_CONNECTIONS.professional.adAccountId });
  } else {
    const form = await post('/social/create_lead_form', demoLeadForm('demo-user', `Crash ${Date.now()}`));
    made = await sandboxPost('social', 'leads', { formId: form.results.leadFormId });
  }
  const leadId = made.leadIds[0] as string;
  await eventually(async () => {
    const listed = await post('/leads/list_leads', { userId: 'demo-user', platform });
    return listed.results.leads.some((entry: { lead: { leadId: string } }) => entry.lead.leadId === leadId) ? true : undefined;
  });
  return leadId;
}

const eventOf = async (eventId: string) => (await post('/conversions/get_event', { userId: 'demo-user', eventId })).results;

describe('a conversion survives a kill -9 of the stack with its request on the wire', () => {
  it('professional: never sent again, the event ends unknown; social: sent again with the same event id', async () => {
    const stages = await post('/conversions/set_stages', {
      userId: 'demo-user',
      crmName: 'HubSpot',
      stages: [
        { stage: 'Lead', social: { datasetId: DEMO_DATASET_ID, eventName: 'Lead' }, professional: { conversionRuleId: String(DEMO_CONVERSION_RULE_ID) } },
      ],
    });
    expect(stages.success, JSON.stringify(stages)).toBe(true);
    const professionalLead = await arrivedLead('professional');
    const socialLead = await arrivedLead('social');
    // each platform takes the event at once and holds its answer back: the stack dies before it hears
    for (const platform of ['social', 'professional'] as const)
      await sandboxPost(platform, 'faults', {
        pathIncludes: platform === 'social' ? '/events' : '/conversionEvents',
        method: 'POST',
        answerDelayMs: 60_000,
        times: 10,
      });
    const [professionalEvent] = (await post('/leads/report_outcome', { userId: 'demo-user', leadId: professionalLead, stage: 'Lead' })).results.eventIds;
    const [socialEvent] = (await post('/leads/report_outcome', { userId: 'demo-user', leadId: socialLead, stage: 'Lead' })).results.eventIds;
    await eventually(async () =>
      (await sends('professional', professionalEvent)).length === 1 && (await sends('social', socialEvent)).length === 1 ? true : undefined,
    );
    await (stack as ChildStack).kill();

    stack = await startChildStack(dataDir, apiKey, { ...env, ...clock.ahead(10 * 60) });
    const professional = await eventually(async () => {
      const event = await eventOf(professionalEvent);
      return event.platforms[0].status === 'queued' ? undefined : event;
    }, 30_000);
    expect(professional.platforms).toEqual([
      {
        platform: 'professional',
        destinationId: String(DEMO_CONVERSION_RULE_ID),
        status: 'unknown',
        error: { code: 'UNKNOWN_OUTCOME', message: expect.any(String) },
      },
    ]);
    expect(await sends('professional', professionalEvent)).toEqual([]);
    const social = await eventually(async () => {
      const event = await eventOf(socialEvent);
      return event.platforms[0].status === 'queued' ? undefined : event;
    }, 30_000);
    expect(social.platforms).toEqual([{ platform: 'social', destinationId: DEMO_DATASET_ID, status: 'delivered' }]);
    const [resent, ...more] = await sends('social', socialEvent);
    expect(more).toEqual([]);
    expect(JSON.parse(resent?.body ?? '{}').data[0].event_id).toBe(socialEvent);
  }, 120_000);
});
