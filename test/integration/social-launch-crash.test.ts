import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_CONNECTIONS, SANDBOX_APP_CREDENTIALS } from '../../local/sandbox/demo-data.ts';
import type { RecordedRequest } from '../../local/sandbox/server.ts';
import { DEMO_AD_ACCOUNT } from '../../local/sandbox/social-data.ts';
import { samplePng } from '../../local/sandbox/sample-media.ts';
import { folderClock, postTo, socialSandboxOf, startChildStack, type ChildStack } from '../helpers/child-stack.ts';
import { jobToEnd } from '../helpers/uploads.ts';

/**
 * A launch survives a kill -9 of `npm start` between two creates (docs/decisions.md, "Launching a whole
 * campaign (social)"): the stack is killed while the platform has made the ad set and its answer has not
 * come, then started again on its data folder (the sandbox keeps what it made there). The job reads the
 * ad set back by its name, adopts it, and goes on: every object exactly once.
 */
const dataDir = mkdtempSync(join(tmpdir(), 'ad-api-launch-'));
const apiKey = 'launch-crash-test-key-0123456789ab';
const env = { LOG_LEVEL: 'SILENT' };
/** each restart after a kill comes after the job queue's visibility, on the stack's clock: the dead run's message comes back at once */
const clock = folderClock();
let stack: ChildStack | undefined;
beforeAll(async () => {
  stack = await startChildStack(dataDir, apiKey, env);
});
afterAll(async () => {
  await stack?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const url = () => (stack as ChildStack).url;
const sandbox = () => socialSandboxOf(stack as ChildStack);
const post = (path: string, body: unknown) => postTo(stack as ChildStack, apiKey, path, body);
const launchRequests = async (name: string): Promise<string[]> =>
  ((await (await fetch(`${sandbox()}/__sandbox/requests?includes=${encodeURIComponent(name)}`)).json()) as RecordedRequest[]).map(
    (request) => `${request.method} ${request.path.replace(/^\/v\d+\.\d+\//, '')}`,
  );
const sandboxRequests = async (): Promise<string[]> =>
  ((await (await fetch(`${sandbox()}/__sandbox/requests`)).json()) as RecordedRequest[])
    .filter((request) => /\/(campaigns|adsets|adcreatives|ads)$/.test(request.path))
    .map((request) => `${request.method} ${request.path.replace(/^\/v\d+\.\d+\//, '')}`);

/** A one-ad traffic launch of the demo user, named `name`. */
const launchOf = (name: string) => ({
  userId: 'demo-user',
  name,
  objective: 'TRAFFIC',
  dailyBudget: '40',
  targeting: { locations: [{ key: 'US', type: 'country' }] },
  ads: [
    {
      name: `${name} ad`,
      imageId: '53599e92b82cb16dc38bd65259fff0ea',
      primaryText: 'Warm up your winter.',
      headline: 'Tune-ups from $89',
      link: 'https://www.example.com/winter',
      callToAction: 'LEARN_MORE',
    },
  ],
});

describe('a launch survives a kill -9 of the stack', () => {
  it('reads back the ad set whose answer the kill lost, adopts it, and makes every object once', async () => {
    const name = `Crash ${Date.now()}`;
    // every create is made by the platform at once, and its answer comes two seconds later
    await fetch(`${sandbox()}/__sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ requestIncludes: name, method: 'POST', answerDelayMs: 2_000, times: 100 }),
    });
    const started = await post('/social/create_campaign', launchOf(name));
    const { jobId } = started.results;
    // killed while the platform holds the ad set and the job has not heard
    while (!(await launchRequests(name)).includes(`POST act_${DEMO_AD_ACCOUNT}/adsets`)) await new Promise((resolve) => setTimeout(resolve, 20));
    const before = await launchRequests(name);
    await (stack as ChildStack).kill();
    expect(before).toEqual([`POST act_${DEMO_AD_ACCOUNT}/campaigns`, `POST act_${DEMO_AD_ACCOUNT}/adsets`]);

    stack = await startChildStack(dataDir, apiKey, { ...env, ...clock.pastVisibilityOf('Jobs') });
    const { job } = await jobToEnd(apiKey, jobId, { baseUrl: url(), timeoutMs: 60_000 });
    expect(job.status, JSON.stringify(job)).toBe('succeeded');
    const after = await sandboxRequests();
    console.info(`launch calls before the kill: ${before.join(', ')}; after: ${after.join(', ')}`);
    const result = job.result as { campaignId: string; adSetId: string };
    // the ad set read back under its campaign and adopted; then the creative and the ad, once each
    expect(after).toEqual([`GET ${result.campaignId}/adsets`, `POST act_${DEMO_AD_ACCOUNT}/adcreatives`, `POST act_${DEMO_AD_ACCOUNT}/ads`]);
    const token = DEMO_CONNECTIONS.social.accessToken;
    const proof = createHmac('sha256', SANDBOX_APP_CREDENTIALS.SOCIAL_APP_SECRET).update(token).digest('hex');
    const adSets = (await (
      await fetch(`${sandbox()}/v26.0/${result.campaignId}/adsets?fields=id,name&access_token=${token}&appsecret_proof=${proof}`)
    ).json()) as {
      data: Array<{ id: string }>;
    };
    expect(adSets.data).toEqual([expect.objectContaining({ id: result.adSetId })]);
  }, 120_000);

  it('killed while the platform turns the campaign on: the run after restarts at once, takes its lease back and records the change once', async () => {
    const name = `Activate ${Date.now()}`;
    const token = DEMO_CONNECTIONS.social.accessToken;
    const started = await post('/social/create_campaign', { ...launchOf(name), activate: true });
    const { jobId } = started.results;
    // the campaign's status write is made by the platform at once, and its answer comes two seconds later
    const fault = await fetch(`${sandbox()}/__sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ requestIncludes: 'ACTIVE', method: 'POST', pathIncludes: '/120', answerDelayMs: 2_000, times: 1 }),
    });
    expect(fault.status).toBe(201);
    const statusWrites = async () =>
      ((await (await fetch(`${sandbox()}/__sandbox/requests`)).json()) as RecordedRequest[]).filter(
        (request) => request.method === 'POST' && /^\/v\d+\.\d+\/\d+$/.test(request.path) && request.body.includes('ACTIVE'),
      );
    const before = (await statusWrites()).length;
    while ((await statusWrites()).length === before) await new Promise((resolve) => setTimeout(resolve, 20));
    await (stack as ChildStack).kill();

    stack = await startChildStack(dataDir, apiKey, { ...env, ...clock.pastVisibilityOf('Jobs') });
    const { job } = await jobToEnd(apiKey, jobId, { baseUrl: url(), timeoutMs: 60_000 });
    expect(job.status, JSON.stringify(job)).toBe('succeeded');
    const result = job.result as { campaignId: string; status: string };
    expect(result.status).toBe('ACTIVE');
    const proof = createHmac('sha256', SANDBOX_APP_CREDENTIALS.SOCIAL_APP_SECRET).update(token).digest('hex');
    const campaign = (await (
      await fetch(`${sandbox()}/v26.0/${result.campaignId}?fields=id,status&access_token=${token}&appsecret_proof=${proof}`)
    ).json()) as {
      status: string;
    };
    expect(campaign.status).toBe('ACTIVE');
    const history = await post('/optimize_me/get_campaign_optimization_history', { userId: 'demo-user', campaignId: result.campaignId });
    expect(history.results.campaign.optimizationStatus).toBe('ACTIVE');
    const changes = (history.results.campaign.history as Array<{ change?: { field: string; from: string; to: string } }>).filter((entry) => entry.change);
    expect(changes.map((entry) => entry.change)).toEqual([{ field: 'status', from: 'PAUSED', to: 'ACTIVE' }]);
    const audit = await post('/tenant/list_audit_events', { userId: 'demo-user', action: 'campaign.status_changed' });
    const ofCampaign = (audit.results.events as Array<{ target: { id: string } }>).filter((event) => event.target.id === result.campaignId);
    expect(ofCampaign).toHaveLength(1);
    // nothing undone
    const deletes = ((await (await fetch(`${sandbox()}/__sandbox/requests`)).json()) as RecordedRequest[]).filter((request) => request.method === 'DELETE');
    expect(deletes).toEqual([]);
  }, 120_000);

  it('the social sandbox keeps an image uploaded before a restart: the ad account still lists it after', async () => {
    const token = DEMO_CONNECTIONS.social.accessToken;
    const proof = createHmac('sha256', SANDBOX_APP_CREDENTIALS.SOCIAL_APP_SECRET).update(token).digest('hex');
    const uploaded = await fetch(`${sandbox()}/v26.0/act_${DEMO_AD_ACCOUNT}/adimages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ access_token: token, appsecret_proof: proof, bytes: samplePng(777, 411).toString('base64') }),
    });
    const hash = (Object.values(((await uploaded.json()) as { images: Record<string, { hash: string }> }).images)[0] as { hash: string }).hash;
    await (stack as ChildStack).stop();
    stack = await startChildStack(dataDir, apiKey, { ...env, ...clock.env() });
    const listed = (await (
      await fetch(
        `${sandbox()}/v26.0/act_${DEMO_AD_ACCOUNT}/adimages?hashes=${encodeURIComponent(JSON.stringify([hash]))}&fields=hash&access_token=${token}&appsecret_proof=${proof}`,
      )
    ).json()) as { data: Array<{ hash: string }> };
    expect(listed.data).toEqual([expect.objectContaining({ hash })]);
  }, 60_000);
});
