import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_CONVERSION_RULE_ID } from '../../local/sandbox/professional-conversions.ts';
import { DEMO_DATASET_ID } from '../../local/sandbox/social-conversions.ts';
import type { RecordedRequest } from '../../local/sandbox/server.ts';
import { postTo, sandboxOf, startChildStack, type ChildStack } from '../helpers/child-stack.ts';
import { eventually } from '../helpers/eventually.ts';

/**
 * A /conversions/send job killed with SIGKILL while a request is on the wire, twice (docs/conversions.md,
 * "Delivery of CRM events"): the social platform took the request and its answer never came, so the
 * restarted job sends it again with the same event ids (the platform counts them once); the
 * professional platform took its request likewise, and the restarted job never sends it again: those
 * events end `unknown`. No event the professional platform accepted is sent to it twice.
 */
const dataDir = mkdtempSync(join(tmpdir(), 'ad-api-send-crash-'));
const apiKey = 'conversions-send-crash-key-0123456789';
const env = { JOB_LEASE_MS: '4000', LOG_LEVEL: 'SILENT' };
let stack: ChildStack | undefined;
afterAll(async () => {
  await stack?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const post = (path: string, body: unknown) => postTo(stack as ChildStack, apiKey, path, body);
const holdAnswers = (platform: 'social' | 'professional', pathIncludes: string) =>
  fetch(`${sandboxOf(stack as ChildStack, platform)}/__sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ pathIncludes, method: 'POST', answerDelayMs: 60_000, times: 5 }),
  });
const sends = async (platform: 'social' | 'professional') =>
  ((await (await fetch(`${sandboxOf(stack as ChildStack, platform)}/__sandbox/requests`)).json()) as RecordedRequest[]).filter(
    (request) => request.method === 'POST' && /\/(conversionEvents|events)$/.test(request.path) && request.body.includes('crm_crash_'),
  );

const funnel = (stage: Record<string, unknown>) =>
  post('/conversions/set_stages', { userId: 'demo-user', crmName: 'HubSpot', stages: [{ stage: 'Won', ...stage }] });
const eventsOf = (batch: string) =>
  [1, 2, 3].map((n) => ({
    eventId: `crm_crash_${batch}${n}`,
    stage: 'Won',
    occurredAt: new Date(Date.now() - 3_600_000).toISOString(),
    user: { email: `crash${batch}${n}@example.com` },
  }));
const jobEnd = (jobId: string) =>
  eventually(
    async () => {
      const view = (await post('/jobs/get_job', { jobId })).results.job;
      return view.status === 'succeeded' || view.status === 'failed' ? view : undefined;
    },
    60_000,
    'the job to end after the restart',
  );

describe('a conversions job survives a kill -9 with its request on the wire', () => {
  it('social: sent again with the same ids; professional: never sent again, its events end unknown', async () => {
    stack = await startChildStack(dataDir, apiKey, env);
    // 1. social: the platform takes the request and holds its answer back; the stack dies before it hears
    expect((await funnel({ social: { datasetId: DEMO_DATASET_ID, eventName: 'Converted' } })).success).toBe(true);
    await holdAnswers('social', '/events');
    const social = (await post('/conversions/send', { userId: 'demo-user', events: eventsOf('s') })).results.jobId as string;
    await eventually(async () => ((await sends('social')).length === 1 ? true : undefined), 30_000, 'the social request to go out');
    await (stack as ChildStack).kill();
    // each restart later than the lease of the run that died (on the stack's clock): the job is taken up at once
    stack = await startChildStack(dataDir, apiKey, { ...env, LOCAL_CLOCK_OFFSET_DAYS: String(10 / (24 * 60)) });
    expect((await jobEnd(social)).result).toEqual({ events: 3, alreadySent: 0, platforms: { social: { delivered: 3 } } });
    const [resent, ...more] = await sends('social');
    expect(more).toEqual([]);
    expect(JSON.parse(resent?.body ?? '{}').data.map((event: { event_id: string }) => event.event_id)).toEqual([
      'crm_crash_s1',
      'crm_crash_s2',
      'crm_crash_s3',
    ]);

    // 2. professional: the same, but the platform would count a resent event twice
    expect((await funnel({ professional: { conversionRuleId: String(DEMO_CONVERSION_RULE_ID) } })).success).toBe(true);
    await holdAnswers('professional', '/conversionEvents');
    const professional = (await post('/conversions/send', { userId: 'demo-user', events: eventsOf('p') })).results.jobId as string;
    await eventually(async () => ((await sends('professional')).length === 1 ? true : undefined), 30_000, 'the professional request to go out');
    await (stack as ChildStack).kill();
    stack = await startChildStack(dataDir, apiKey, { ...env, LOCAL_CLOCK_OFFSET_DAYS: String(20 / (24 * 60)) });
    expect((await jobEnd(professional)).result).toEqual({ events: 3, alreadySent: 0, platforms: { professional: { unknown: 3 } } });
    expect(await sends('professional')).toEqual([]);
    const event = (await post('/conversions/get_event', { userId: 'demo-user', eventId: 'crm_crash_p2' })).results;
    expect(event.platforms).toEqual([
      {
        platform: 'professional',
        destinationId: String(DEMO_CONVERSION_RULE_ID),
        status: 'unknown',
        error: { code: 'UNKNOWN_OUTCOME', message: expect.any(String) },
      },
    ]);
  }, 180_000);
});
