import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { SANDBOX_APP_CREDENTIALS } from '../../local/sandbox/demo-data.ts';
import { samplePng } from '../../local/sandbox/sample-media.ts';
import { call, newTenant, newUser, stack } from '../helpers/api.ts';
import { injectFault, upstreamRequestsWith } from '../helpers/sandbox.ts';
import { scriptedServer } from '../helpers/scripted-server.ts';
import { expectedProof, newSocialUser } from '../helpers/social.ts';
import { LOST_ANSWER_DELAY_MS } from '../helpers/timing.ts';
import { jobToEnd } from '../helpers/uploads.ts';

/**
 * What a launch may call its own (docs/decisions.md, "Launch identity"): a read-back never adopts an
 * object another launch made, a rollback never deletes one, two launches of one name in one ad account
 * never run at once, and `rolledBack` is true only when nothing the launch may have made is left.
 */
const LAUNCH = '/social/create_campaign';
let apiKey = '';
beforeAll(async () => {
  apiKey = await newTenant();
});

/** A user on an ad account of its own, with one image in it. */
async function launchUser() {
  const account = `8${String(Date.now()).slice(-8)}${String(Math.floor(Math.random() * 1e6)).padStart(6, '0')}`;
  const user = await newSocialUser(apiKey, { adAccountId: account });
  const response = await fetch(`${stack().sandboxes.social}/v26.0/act_${account}/adimages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ access_token: user.token, appsecret_proof: expectedProof(user.token), bytes: samplePng(640, 320).toString('base64') }),
  });
  const body = (await response.json()) as { images: Record<string, { hash: string }> };
  return { ...user, account, hash: (Object.values(body.images)[0] as { hash: string }).hash };
}

const launchOf = (userId: string, hash: string, name: string, overrides: Record<string, unknown> = {}) => ({
  userId,
  name,
  objective: 'TRAFFIC',
  dailyBudget: '50',
  targeting: { locations: [{ key: 'US', type: 'country' }] },
  ads: [{ name: `${name} ad`, imageId: hash, primaryText: 'Warm up.', headline: 'Tune-ups', link: 'https://www.example.com/', callToAction: 'LEARN_MORE' }],
  ...overrides,
});

const node = async (token: string, id: string) => {
  const response = await fetch(
    `${stack().sandboxes.social}/v26.0/${id}?fields=id,status,daily_budget&access_token=${token}&appsecret_proof=${expectedProof(token)}`,
  );
  return (await response.json()) as { id?: string; status?: string; daily_budget?: string };
};

const campaignCreates = async (token: string, account: string) =>
  (await upstreamRequestsWith('social', token)).filter((request) => request.method === 'POST' && request.path.endsWith(`act_${account}/campaigns`));

type LaunchJob = {
  status: string;
  result?: { campaignId: string; adSetId: string };
  error?: { code: string; message: string };
  rolledBack?: boolean;
  orphans?: unknown[];
};

describe('launch identity', () => {
  it('two launches of one name in one account at once: one runs, the other is 409 LAUNCH_IN_PROGRESS naming it, nothing made for it', async () => {
    const { userId, token, account, hash } = await launchUser();
    const name = `Twin ${randomUUID().slice(0, 8)}`;
    const answers = await Promise.all([call(LAUNCH, launchOf(userId, hash, name), { apiKey }), call(LAUNCH, launchOf(userId, hash, name), { apiKey })]);
    const started = answers.filter((answer) => answer.status === 200);
    const refused = answers.filter((answer) => answer.status === 409);
    expect(started, JSON.stringify(answers.map((answer) => answer.body))).toHaveLength(1);
    expect(refused).toHaveLength(1);
    const jobId = started[0]?.body.results.jobId as string;
    expect(refused[0]?.body.results).toMatchObject({ success: false, code: 'LAUNCH_IN_PROGRESS', runningJobId: jobId });
    expect(refused[0]?.body.results.error).toContain(jobId);
    const { job } = await jobToEnd(apiKey, jobId);
    expect(job.status).toBe('succeeded');
    expect(await campaignCreates(token, account)).toHaveLength(1);
    // once it has ended, the name is free again
    const again = await call(LAUNCH, launchOf(userId, hash, name), { apiKey });
    expect(again.status, again.text).toBe(200);
    expect((await jobToEnd(apiKey, again.body.results.jobId)).job.status).toBe('succeeded');
  });

  it('a launch after another of the same name whose campaign create got no answer makes its own campaign, never adopts the first’s', async () => {
    const { userId, token, account, hash } = await launchUser();
    const name = `Row ${randomUUID().slice(0, 8)}`;
    const first = (await jobToEnd(apiKey, (await call(LAUNCH, launchOf(userId, hash, name), { apiKey })).body.results.jobId)).job as LaunchJob;
    expect(first.status).toBe('succeeded');
    // the second's campaign create never answers and makes nothing: its read-back finds only the first's campaign
    await injectFault('social', { requestIncludes: [token, '"daily_budget"'], pathIncludes: `act_${account}/campaigns`, method: 'POST', kind: 'timeout' });
    const second = (await jobToEnd(apiKey, (await call(LAUNCH, launchOf(userId, hash, name, { dailyBudget: '60' }), { apiKey })).body.results.jobId))
      .job as LaunchJob;
    expect(second.status, JSON.stringify(second)).toBe('succeeded');
    expect(second.result?.campaignId).not.toBe(first.result?.campaignId);
    expect((await node(token, second.result?.campaignId as string)).daily_budget).toBe('6000');
    expect((await node(token, first.result?.campaignId as string)).daily_budget).toBe('5000');
    expect(await campaignCreates(token, account)).toHaveLength(3); // the first's, the second's lost one, the second's again
  });

  it('a failing launch after another of the same name undoes only what it made: the first’s campaign stays', async () => {
    const { userId, token, account, hash } = await launchUser();
    const name = `Undo ${randomUUID().slice(0, 8)}`;
    const first = (await jobToEnd(apiKey, (await call(LAUNCH, launchOf(userId, hash, name), { apiKey })).body.results.jobId)).job as LaunchJob;
    await injectFault('social', { requestIncludes: [token, '"daily_budget"'], pathIncludes: `act_${account}/campaigns`, method: 'POST', kind: 'timeout' });
    await injectFault('social', {
      requestIncludes: [token, '"optimization_goal"'],
      pathIncludes: `act_${account}/adsets`,
      method: 'POST',
      status: 400,
      body: { error: { message: 'Invalid parameter', type: 'OAuthException', code: 100, error_subcode: 2490408, fbtrace_id: 'Aid' } },
    });
    const second = (await jobToEnd(apiKey, (await call(LAUNCH, launchOf(userId, hash, name), { apiKey })).body.results.jobId)).job as LaunchJob;
    expect(second.status).toBe('failed');
    expect(second).toMatchObject({ rolledBack: true, orphans: [] });
    expect((await node(token, first.result?.campaignId as string)).status).toBe('PAUSED');
    const deletes = (await upstreamRequestsWith('social', token)).filter((request) => request.method === 'DELETE').map((request) => request.path);
    expect(deletes).toHaveLength(1);
    expect(deletes[0]).not.toContain(first.result?.campaignId as string);
  });

  it('an object of the name that is not what was sent is not adopted: UNKNOWN_OUTCOME naming it, left alone, and the lost create listed as possible', async () => {
    const { userId, token, account, hash } = await launchUser();
    const name = `Hand ${randomUUID().slice(0, 8)}`;
    // the launch's campaign create makes nothing and never answers; meanwhile a person makes a campaign of that name by hand
    await injectFault('social', { requestIncludes: [token, '"daily_budget"'], pathIncludes: `act_${account}/campaigns`, method: 'POST', kind: 'timeout' });
    const started = await call(LAUNCH, launchOf(userId, hash, name), { apiKey });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const byHand = await fetch(`${stack().sandboxes.social}/v26.0/act_${account}/campaigns`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        access_token: token,
        appsecret_proof: expectedProof(token),
        name,
        objective: 'OUTCOME_AWARENESS',
        status: 'PAUSED',
        special_ad_categories: '[]',
        is_adset_budget_sharing_enabled: false,
      }),
    });
    const handMade = ((await byHand.json()) as { id: string }).id;
    const job = (await jobToEnd(apiKey, started.body.results.jobId)).job as LaunchJob;
    expect(job.status, JSON.stringify(job)).toBe('failed');
    expect(job.error?.code).toBe('UNKNOWN_OUTCOME');
    expect(job.error?.message).toContain(handMade);
    expect(job.rolledBack).toBe(false);
    expect(job.orphans).toEqual([{ type: 'campaign', id: null, name, possible: true }]);
    expect((await node(token, handMade)).status).toBe('PAUSED');
  });

  it('a creative whose answer was lost is read back among the account’s newest and adopted, never made twice', async () => {
    const { userId, token, account, hash } = await launchUser();
    const name = `Creative ${randomUUID().slice(0, 8)}`;
    await injectFault('social', {
      requestIncludes: [token, '"object_story_spec"'],
      pathIncludes: `act_${account}/adcreatives`,
      answerDelayMs: LOST_ANSWER_DELAY_MS,
    });
    const job = (await jobToEnd(apiKey, (await call(LAUNCH, launchOf(userId, hash, name), { apiKey })).body.results.jobId)).job as LaunchJob;
    expect(job.status, JSON.stringify(job)).toBe('succeeded');
    const requests = await upstreamRequestsWith('social', token);
    expect(requests.filter((request) => request.method === 'POST' && request.path.endsWith('/adcreatives'))).toHaveLength(1);
    const readBack = requests.find((request) => request.method === 'GET' && request.path.endsWith(`act_${account}/adcreatives`));
    expect(JSON.parse(String(readBack?.query.filtering))).toEqual([{ field: 'name', operator: 'EQUAL', value: `${name} ad` }]);
  });
});

describe('“budget too low” in one shape', () => {
  const tooLow = {
    status: 400,
    body: {
      error: {
        message: 'Invalid parameter',
        type: 'OAuthException',
        code: 100,
        error_subcode: 1885272,
        error_user_title: 'Budget Is Too Low',
        error_user_msg: 'Your budget is too low. It must be at least $5.00 USD per day.',
        fbtrace_id: 'Abudget',
      },
    },
  };

  it('the platform’s own refusal names its minimum in the dry run’s issues and in the failed job’s error', async () => {
    const { userId, token, account, hash } = await launchUser();
    await injectFault('social', { requestIncludes: [token, '"daily_budget"'], pathIncludes: `act_${account}/campaigns`, method: 'POST', ...tooLow });
    const checked = await call(LAUNCH, launchOf(userId, hash, `Low ${randomUUID().slice(0, 8)}`, { validateOnly: true }), { apiKey });
    expect(checked.body.results.issues).toContainEqual(
      expect.objectContaining({ field: 'name', code: 'BUDGET_TOO_LOW', minimum: { amount: '5.00', currency: 'USD' } }),
    );
    await injectFault('social', { requestIncludes: [token, '"daily_budget"'], pathIncludes: `act_${account}/campaigns`, method: 'POST', ...tooLow });
    const job = (await jobToEnd(apiKey, (await call(LAUNCH, launchOf(userId, hash, `Low ${randomUUID().slice(0, 8)}`), { apiKey })).body.results.jobId))
      .job as LaunchJob & { error?: { minimum?: unknown } };
    expect(job.status).toBe('failed');
    expect(job.error).toMatchObject({ code: 'BUDGET_TOO_LOW', minimum: { amount: '5.00', currency: 'USD' } });
    expect(job).toMatchObject({ rolledBack: true, orphans: [] });
  });
});

describe('platform words carry no credential', () => {
  it('a social launch refused with the user’s token and the app secret in its title and message: both redacted in get_job and the webhook', async () => {
    const receiver = await scriptedServer(() => ({ status: 200 }));
    try {
      await call('/tenant/update_settings', { webhook: { url: `${receiver.url}/redaction` } }, { apiKey });
      const { userId, token, account, hash } = await launchUser();
      const secret = SANDBOX_APP_CREDENTIALS.SOCIAL_APP_SECRET;
      await injectFault('social', {
        requestIncludes: [token, '"object_story_spec"'],
        pathIncludes: `act_${account}/adcreatives`,
        status: 400,
        body: {
          error: {
            message: `Invalid parameter (access_token=${token})`,
            type: 'OAuthException',
            code: 100,
            error_subcode: 1487202,
            error_user_title: `Token ${token} may not post`,
            error_user_msg: `The app ${secret} cannot act for this Page; retry with client_secret=${secret}`,
            fbtrace_id: 'Atrace',
          },
        },
      });
      const started = await call(LAUNCH, launchOf(userId, hash, `Secret ${randomUUID().slice(0, 8)}`), { apiKey });
      const { job } = await jobToEnd(apiKey, started.body.results.jobId);
      expect(job.status).toBe('failed');
      const seen = JSON.stringify(job);
      expect(seen).not.toContain(token);
      expect(seen).not.toContain(secret);
      expect((job.error as unknown as { platform: { userTitle: string; userMessage: string } }).platform).toMatchObject({
        userTitle: 'Token [redacted] may not post',
        userMessage: 'The app [redacted] cannot act for this Page; retry with client_secret=[redacted]',
      });
      const deadline = Date.now() + 10_000;
      let event: string | undefined;
      while (!event && Date.now() < deadline) {
        event = receiver.received.map((request) => request.body).find((body) => body.includes(started.body.results.jobId));
        if (!event) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(event).toContain('[redacted]');
      expect(event).not.toContain(token);
      expect(event).not.toContain(secret);
    } finally {
      await call('/tenant/update_settings', { webhook: null }, { apiKey });
      await receiver.close();
    }
  });

  it('a professional refusal that echoes refresh_token=… and a bearer token answers without them', async () => {
    const token = `AQVredact${randomBytes(8).toString('hex')}`;
    const userId = await newUser(apiKey, { professional: { accessToken: token, adAccountId: '512345678' } });
    await injectFault('professional', {
      requestIncludes: token,
      status: 400,
      body: { status: 400, code: 'ILLEGAL_ARGUMENT', message: `refresh failed: refresh_token=AQXrefreshsecret42 sent with Authorization: Bearer ${token}` },
    });
    const answer = await call('/professional/update_campaign_status', { userId, campaignId: '600000101', status: 'PAUSED' }, { apiKey });
    expect(answer.body.results.success).toBe(false);
    expect(answer.text).not.toContain('AQXrefreshsecret42');
    expect(answer.text).not.toContain(token);
    expect(answer.body.results.error).toContain('refresh_token=[redacted]');
  });
});

describe('a disconnect stops running jobs', () => {
  it('a launch whose user disconnects mid-way stops before its next platform call: failed PLATFORM_NOT_CONNECTED, what it made listed, nothing undone with the dead grant', async () => {
    const { userId, token, account, hash } = await launchUser();
    // the ad set is made at once and answered two seconds later: the disconnect lands while it is in flight
    await injectFault('social', { requestIncludes: [token, '"optimization_goal"'], pathIncludes: `act_${account}/adsets`, answerDelayMs: 2_000 });
    const started = await call(LAUNCH, launchOf(userId, hash, `Gone ${randomUUID().slice(0, 8)}`), { apiKey });
    const adSetSent = async () =>
      (await upstreamRequestsWith('social', token)).some((request) => request.method === 'POST' && request.path.endsWith('/adsets'));
    while (!(await adSetSent())) await new Promise((resolve) => setTimeout(resolve, 20));
    const disconnected = await call('/users/disconnect', { userId, platform: 'social' }, { apiKey });
    expect(disconnected.body.results.success, disconnected.text).toBe(true);
    const job = (await jobToEnd(apiKey, started.body.results.jobId)).job as LaunchJob;
    expect(job.status).toBe('failed');
    expect(job.error?.code).toBe('PLATFORM_NOT_CONNECTED');
    expect(job.rolledBack).toBe(false);
    expect(job.orphans).toEqual(expect.arrayContaining([{ type: 'campaign', id: expect.stringMatching(/^\d+$/) }]));
    const calls = (await upstreamRequestsWith('social', token)).map((request) => `${request.method} ${request.path.replace(/^\/v\d+\.\d+\//, '')}`);
    // nothing after the ad set: no creative, no ad, no delete with a grant the user took back
    expect(calls.filter((entry) => /adcreatives|\/ads$|^DELETE/.test(entry))).toEqual([]);
  });
});
