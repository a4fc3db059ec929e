import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_CONNECTIONS } from '../../local/sandbox/demo-data.ts';
import { SANDBOX_LIBRARY } from '../../local/sandbox/professional-media.ts';
import type { RecordedRequest } from '../../local/sandbox/server.ts';
import { folderClock, postTo, sandboxOf, startChildStack, throughEveryDelivery, type ChildStack } from '../helpers/child-stack.ts';
import { jobToEnd } from '../helpers/uploads.ts';

/**
 * A professional launch survives a kill -9 of `npm start` between two creates (docs/decisions.md,
 * "Launching a whole campaign (professional)"): the stack is killed while the platform has made the
 * campaign and its answer has not come, then started again on its data folder (the sandbox keeps its
 * groups, campaigns, creatives and media there). The job finds the campaign under its group by name,
 * adopts it, and makes the creative: every object exactly once.
 */
const dataDir = mkdtempSync(join(tmpdir(), 'ad-api-professional-launch-'));
const apiKey = 'professional-crash-test-key-0123456789';
const env = { LOG_LEVEL: 'SILENT' };
/** the restart after the kill comes after the job queue's visibility, on the stack's clock: the dead run's message comes back at once */
const clock = folderClock();
const ACCOUNT = DEMO_CONNECTIONS.professional.adAccountId;
let stack: ChildStack | undefined;
beforeAll(async () => {
  stack = await startChildStack(dataDir, apiKey, env);
});
afterAll(async () => {
  await stack?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const sandbox = () => sandboxOf(stack as ChildStack, 'professional');
const recorded = async (): Promise<RecordedRequest[]> => (await (await fetch(`${sandbox()}/__sandbox/requests`)).json()) as RecordedRequest[];
const launchCalls = async () =>
  (await recorded())
    .filter((request) => /\/adAccounts\/\d+\/(adCampaignGroups|adCampaigns|creatives)$/.test(request.path))
    .map((request) => `${request.method} ${request.path.replace(/^\/rest/, '')}`);

describe('a professional launch survives a kill -9 of the stack', () => {
  it('reads back the campaign whose answer the kill lost, adopts it, and makes every object once', async () => {
    const name = `Crash ${Date.now()}`;
    // every create is made by the platform at once, and its answer comes two seconds later
    await fetch(`${sandbox()}/__sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ requestIncludes: name, method: 'POST', answerDelayMs: 2_000, times: 100 }),
    });
    const started = await postTo(stack as ChildStack, apiKey, '/professional/create_campaign', {
      userId: 'demo-user',
      name,
      objective: 'WEBSITE_VISITS',
      dailyBudget: '40.00',
      targeting: { locations: ['urn:li:geo:103644278'] },
      ads: [
        {
          name: `${name} ad`,
          imageId: SANDBOX_LIBRARY.images[0],
          commentary: 'Join our webinar.',
          headline: 'Save your seat',
          link: 'https://www.example.com/webinar',
          callToAction: 'REGISTER',
        },
      ],
    });
    const { jobId } = started.results;
    // killed while the platform holds the campaign and the job has not heard
    while (!(await launchCalls()).includes(`POST /adAccounts/${ACCOUNT}/adCampaigns`)) await new Promise((resolve) => setTimeout(resolve, 20));
    const before = await launchCalls();
    await (stack as ChildStack).kill();
    expect(before).toEqual([`POST /adAccounts/${ACCOUNT}/adCampaignGroups`, `POST /adAccounts/${ACCOUNT}/adCampaigns`]);

    stack = await startChildStack(dataDir, apiKey, { ...env, ...clock.pastVisibilityOf('Jobs') });
    const { job } = await jobToEnd(apiKey, jobId, { baseUrl: (stack as ChildStack).url, timeoutMs: 60_000 });
    expect(job.status, JSON.stringify(job)).toBe('succeeded');
    const after = await launchCalls();
    console.info(`professional launch calls before the kill: ${before.join(', ')}; after: ${after.join(', ')}`);
    // the campaign found under its group and adopted; then the creative, once
    expect(after).toEqual([`GET /adAccounts/${ACCOUNT}/adCampaigns`, `POST /adAccounts/${ACCOUNT}/creatives`]);
    const result = job.result as { campaignId: string; campaignGroupId: string };
    const search = (await recorded()).find((request) => request.method === 'GET' && request.path.endsWith('/adCampaigns'));
    expect(search?.query.search).toContain(`urn:li:sponsoredCampaignGroup:${result.campaignGroupId}`);
    const campaigns = await fetch(
      `${sandbox()}/rest/adAccounts/${ACCOUNT}/adCampaigns?q=search&search=(campaignGroup:(values:List(${encodeURIComponent(`urn:li:sponsoredCampaignGroup:${result.campaignGroupId}`)})))`,
      { headers: { authorization: `Bearer ${DEMO_CONNECTIONS.professional.accessToken}`, 'linkedin-version': '202608', 'x-restli-protocol-version': '2.0.0' } },
    );
    expect(((await campaigns.json()) as { elements: Array<{ id: number }> }).elements.map((campaign) => String(campaign.id))).toEqual([result.campaignId]);
  }, 120_000);
});

describe('a launch the queue gives up on', () => {
  it('is undone by the dead-letter path: every draft deleted newest first, rolledBack, the last reason', async () => {
    const name = `Given up ${Date.now()}`;
    // the activation's read of the campaign never answers but 500: each run fails, the queue hands it back, then gives up
    await fetch(`${sandbox()}/__sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        method: 'GET',
        pathIncludes: `/adAccounts/${ACCOUNT}/adCampaigns/61`,
        status: 500,
        body: { status: 500, message: 'boom' },
        times: 1_000,
      }),
    });
    const since = (stack as ChildStack).output().length;
    const started = await postTo(stack as ChildStack, apiKey, '/professional/create_campaign', {
      userId: 'demo-user',
      name,
      objective: 'WEBSITE_VISITS',
      dailyBudget: '40.00',
      targeting: { locations: ['urn:li:geo:103644278'] },
      ads: [
        {
          name: `${name} ad`,
          imageId: SANDBOX_LIBRARY.images[1],
          commentary: 'Join our webinar.',
          headline: 'Save your seat',
          link: 'https://www.example.com/webinar',
          callToAction: 'REGISTER',
        },
      ],
      activate: true,
    });
    // each run fails; the stack's clock moves past the queue's visibility after each, then the queue gives up
    await throughEveryDelivery(stack as ChildStack, 'Jobs', since);
    const { job, seen } = await jobToEnd(apiKey, started.results.jobId, { baseUrl: (stack as ChildStack).url });
    expect(seen.filter((view) => view.status === 'failed')).toHaveLength(1);
    expect(job).toMatchObject({ status: 'failed', error: { code: 'PLATFORM_UNAVAILABLE', message: expect.stringContaining('given up after 5 attempts') } });
    expect((job as { rolledBack?: boolean }).rolledBack).toBe(true);
    expect((job as { orphans?: unknown[] }).orphans).toEqual([]);
    const steps = (job.progress as unknown as { steps: Array<{ step: string; status: string; platformId?: string }> }).steps;
    expect(steps.map((step) => `${step.step}:${step.status}`)).toEqual(['group:undone', 'campaign:undone', 'creative:0:undone', 'activate:pending']);
    const idOf = (step: string) => steps.find((candidate) => candidate.step === step)?.platformId as string;
    const deletes = (await recorded())
      .filter((request) => request.method === 'DELETE')
      .map((request) => decodeURIComponent(request.path.replace(/^\/rest/, '')));
    expect(deletes).toEqual([
      `/adAccounts/${ACCOUNT}/creatives/${idOf('creative:0')}`,
      `/adAccounts/${ACCOUNT}/adCampaigns/${idOf('campaign')}`,
      `/adAccounts/${ACCOUNT}/adCampaignGroups/${idOf('group')}`,
    ]);
  }, 180_000);
});
