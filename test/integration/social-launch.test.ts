import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleMp4, samplePng } from '../../local/sandbox/sample-media.ts';
import { call, newTenant, stack } from '../helpers/api.ts';
import { injectFault, upstreamRequestsWith } from '../helpers/sandbox.ts';
import { scriptedServer, webhookEvents } from '../helpers/scripted-server.ts';
import { expectedProof, newSocialUser } from '../helpers/social.ts';
import { LOST_ANSWER_DELAY_MS } from '../helpers/timing.ts';
import { jobToEnd, putFile } from '../helpers/uploads.ts';

/**
 * A whole social campaign in one call (docs/decisions.md, "Launching a whole campaign"): the request
 * reads the account and the images, the job makes campaign, ad set, creatives and ads in that order,
 * one receipt each; a refusal undoes what was made, newest first; a lost answer is read back.
 */
const LAUNCH = '/social/create_campaign';
let apiKey = '';
let receiver: Awaited<ReturnType<typeof scriptedServer>>;
beforeAll(async () => {
  receiver = await scriptedServer(() => ({ status: 200 }));
  apiKey = await newTenant();
  await call('/tenant/update_settings', { webhook: { url: `${receiver.url}/launch` } }, { apiKey });
});
afterAll(() => receiver.close());

const eventsOf = (jobId: string) => webhookEvents(receiver.received).filter((event) => event.data?.jobId === jobId);

/** A user on an ad account of its own, with `images` images in it (their hashes). */
async function launchUser(images = 2, account = `7${String(Date.now()).slice(-8)}${String(Math.floor(Math.random() * 1e6)).padStart(6, '0')}`) {
  const user = await newSocialUser(apiKey, { adAccountId: account });
  const hashes: string[] = [];
  for (let index = 0; index < images; index++) {
    const response = await fetch(`${stack().sandboxes.social}/v26.0/act_${account}/adimages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        access_token: user.token,
        appsecret_proof: expectedProof(user.token),
        bytes: samplePng(600 + index, 314).toString('base64'),
      }),
    });
    const body = (await response.json()) as { images: Record<string, { hash: string }> };
    hashes.push((Object.values(body.images)[0] as { hash: string }).hash);
  }
  return { ...user, account, hashes };
}

const ad = (name: string, imageId: string) => ({
  name,
  imageId,
  primaryText: `Beat the cold: ${name}.`,
  headline: 'Furnace tune-up from $89',
  link: 'https://www.example.com/winter',
  callToAction: 'LEARN_MORE',
});

const launchOf = (userId: string, hashes: string[], overrides: Record<string, unknown> = {}) => ({
  userId,
  name: `Winter ${randomUUID().slice(0, 8)}`,
  objective: 'TRAFFIC',
  dailyBudget: '50',
  targeting: { locations: [{ key: 'US', type: 'country' }] },
  ads: hashes.map((hash, index) => ad(`Ad ${index + 1}`, hash)),
  ...overrides,
});

/** What the test itself sent (the images it put in the account) is not the launch's. */
const launchRequests = async (token: string) =>
  (await upstreamRequestsWith('social', token)).filter((request) => !(request.path.endsWith('/adimages') && request.method === 'POST'));
const launchWrites = async (token: string) => (await launchRequests(token)).filter((request) => request.method !== 'GET');

/** The launch's writes and read-backs as the platform saw them: method and path, in order. */
const launchCalls = async (token: string) =>
  (await upstreamRequestsWith('social', token))
    .filter((request) => !request.path.endsWith('/adimages') || request.method === 'GET')
    .map((request) => `${request.method} ${request.path.replace(/^\/v\d+\.\d+\//, '')}`);

const sandboxNode = async (token: string, id: string, fields = 'id,status') => {
  const response = await fetch(`${stack().sandboxes.social}/v26.0/${id}?fields=${fields}&access_token=${token}&appsecret_proof=${expectedProof(token)}`);
  return (await response.json()) as { id?: string; status?: string; effective_status?: string; error?: unknown };
};

describe('create_campaign on the social platform', () => {
  it('a traffic campaign with two ads: the exact creates in order, the job’s result, history, audit and webhook', async () => {
    const { userId, token, account, hashes } = await launchUser(2);
    // a start in the January after next: always ahead, and always standard time in the account's Los Angeles
    const year = new Date().getUTCFullYear() + 1;
    const body = launchOf(userId, hashes, {
      startTime: `${year}-01-15T09:00:00-08:00`,
      targeting: { locations: [{ key: 'US', type: 'country' }], ageMin: 25 },
    });
    const started = await call(LAUNCH, body, { apiKey });
    expect(started.status, started.text).toBe(200);
    expect(started.body.results).toEqual({ success: true, jobId: expect.stringMatching(/^job_/), status: 'queued' });
    const { job } = await jobToEnd(apiKey, started.body.results.jobId);
    expect(job.status, JSON.stringify(job)).toBe('succeeded');
    const result = job.result as { campaignId: string; adSetId: string; ads: Array<{ adId: string; creativeId: string }>; status: string };
    expect(result).toEqual({
      campaignId: expect.any(String),
      adSetId: expect.any(String),
      ads: [
        { adId: expect.any(String), creativeId: expect.any(String) },
        { adId: expect.any(String), creativeId: expect.any(String) },
      ],
      status: 'PAUSED',
    });
    expect(await launchCalls(token)).toEqual([
      `GET act_${account}`,
      `GET act_${account}/adimages`,
      `POST act_${account}/campaigns`,
      `POST act_${account}/adsets`,
      `POST act_${account}/adcreatives`,
      `POST act_${account}/ads`,
      `POST act_${account}/adcreatives`,
      `POST act_${account}/ads`,
    ]);
    const sent = (await launchWrites(token)).map((request) => JSON.parse(request.body));
    expect(sent[0]).toMatchObject({
      name: body.name,
      objective: 'OUTCOME_TRAFFIC',
      status: 'PAUSED',
      special_ad_categories: '[]',
      buying_type: 'AUCTION',
      daily_budget: '5000',
      bid_strategy: 'LOWEST_COST_WITHOUT_CAP',
    });
    expect(sent[1]).toMatchObject({
      campaign_id: result.campaignId,
      name: `${body.name} · ad set`,
      status: 'ACTIVE',
      optimization_goal: 'LINK_CLICKS',
      billing_event: 'IMPRESSIONS',
      destination_type: 'WEBSITE',
      start_time: `${year}-01-15T09:00:00-0800`,
    });
    expect(sent[1].daily_budget).toBeUndefined();
    expect(JSON.parse(sent[1].targeting)).toEqual({ geo_locations: { countries: ['US'] }, age_min: 25, targeting_automation: { advantage_audience: 1 } });
    expect(JSON.parse(sent[2].object_story_spec)).toEqual({
      page_id: expect.any(String),
      link_data: {
        image_hash: hashes[0],
        link: 'https://www.example.com/winter',
        message: 'Beat the cold: Ad 1.',
        name: 'Furnace tune-up from $89',
        call_to_action: { type: 'LEARN_MORE', value: { link: 'https://www.example.com/winter' } },
      },
    });
    expect(sent[3]).toMatchObject({
      name: 'Ad 1',
      adset_id: result.adSetId,
      creative: JSON.stringify({ creative_id: result.ads[0]?.creativeId }),
      status: 'ACTIVE',
    });

    // the campaign is listed, PAUSED, and its ads wait under it
    const listed = await call('/social/get_campaigns_list', { userId }, { apiKey });
    expect(listed.body.results.campaigns ?? listed.body.results.data).toEqual(expect.arrayContaining([expect.objectContaining({ id: result.campaignId })]));
    expect((await sandboxNode(token, result.ads[0]?.adId as string, 'id,effective_status')).effective_status).toMatch(/PENDING_REVIEW|CAMPAIGN_PAUSED/);

    const history = await call('/optimize_me/get_campaign_optimization_history', { userId, campaignId: result.campaignId }, { apiKey });
    expect(history.body.results.campaign).toMatchObject({ campaignName: body.name, platform: 'social', optimizationStatus: 'PAUSED' });
    expect(history.body.results.campaign.history).toHaveLength(2);
    expect(history.body.results.campaign.history).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          adId: result.ads[0]?.adId,
          adSetId: result.adSetId,
          headlines: [{ newText: 'Furnace tune-up from $89', oldText: '' }],
          primaryTexts: [{ newText: 'Beat the cold: Ad 1.', oldText: '' }],
          images: [expect.objectContaining({ id: hashes[0], width: 600, height: 314 })],
        }),
      ]),
    );
    const audit = await call('/tenant/list_audit_events', { userId }, { apiKey });
    const actions = audit.body.results.events.map((event: { action: string }) => event.action);
    expect(actions).toEqual(expect.arrayContaining(['campaign_launch.started', 'campaign.launched']));
    expect(audit.body.results.events.find((event: { action: string }) => event.action === 'campaign.launched')).toMatchObject({
      target: { type: 'campaign', id: result.campaignId },
      outcome: 'succeeded',
    });
    await expect.poll(() => eventsOf(job.jobId).map((event) => event.type)).toEqual(['campaign_launch.succeeded']);
    expect(eventsOf(job.jobId)[0].data).toMatchObject({ jobId: job.jobId, status: 'succeeded', result: { campaignId: result.campaignId } });
  });

  it.each([
    ['AWARENESS', {}, 'OUTCOME_AWARENESS', 'REACH'],
    ['ENGAGEMENT', {}, 'OUTCOME_ENGAGEMENT', 'POST_ENGAGEMENT'],
    ['LEADS', { leadFormId: '998877665544332' }, 'OUTCOME_LEADS', 'LEAD_GENERATION'],
    ['LEADS', { conversion: { pixelId: '1234567890', event: 'LEAD' } }, 'OUTCOME_LEADS', 'OFFSITE_CONVERSIONS'],
    ['SALES', { conversion: { pixelId: '1234567890', event: 'PURCHASE' } }, 'OUTCOME_SALES', 'OFFSITE_CONVERSIONS'],
  ] as const)('%s %j through the stack: the platform’s objective %s and goal %s, made whole', async (objective, extra, platformObjective, goal) => {
    const { userId, token, hashes } = await launchUser(1);
    const started = await call(LAUNCH, launchOf(userId, hashes, { objective, ...extra }), { apiKey });
    expect(started.status, started.text).toBe(200);
    const { job } = await jobToEnd(apiKey, started.body.results.jobId);
    expect(job.status, JSON.stringify(job)).toBe('succeeded');
    const [campaign, adSet] = (await launchWrites(token)).map((request) => JSON.parse(request.body));
    expect(campaign.objective).toBe(platformObjective);
    expect(adSet.optimization_goal).toBe(goal);
  });

  it('a video ad: its creative names the video and its preferred thumbnail, read once; history shows the thumbnail', async () => {
    // a video put into an account of its own through upload_ad_media, processed at once
    const { userId, token, account } = await launchUser(0);
    await fetch(`${stack().sandboxes.social}/__sandbox/video-processing`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ account, seconds: 0 }),
    });
    const bytes = sampleMp4(300_000);
    const ticket = await call(
      '/uploads/create_upload',
      { userId, fileName: 'clip.mp4', contentLength: bytes.length, purpose: 'video', contentType: 'video/mp4' },
      { apiKey },
    );
    expect((await putFile(ticket.body.results, bytes)).status).toBe(200);
    const uploaded = await call('/social/upload_ad_media', { userId, uploadId: ticket.body.results.uploadId }, { apiKey });
    const videoId = ((await jobToEnd(apiKey, uploaded.body.results.jobId)).job.result as { media: { id: string } }).media.id;
    const body = launchOf(userId, [], { ads: [{ ...ad('Video ad', ''), imageId: undefined, videoId }] });
    const started = await call(LAUNCH, body, { apiKey });
    expect(started.status, started.text).toBe(200);
    const { job } = await jobToEnd(apiKey, started.body.results.jobId);
    expect(job.status, JSON.stringify(job)).toBe('succeeded');
    const calls = await launchCalls(token);
    expect(calls.filter((entry) => entry === `GET ${videoId}/thumbnails`)).toHaveLength(1);
    const creative = (await launchWrites(token)).find((request) => request.path.endsWith('/adcreatives'));
    const story = JSON.parse(JSON.parse(creative?.body as string).object_story_spec);
    expect(story.video_data).toMatchObject({ video_id: videoId, image_url: expect.stringContaining(`${videoId}_thumb_1`) });
    const result = job.result as { campaignId: string };
    const history = await call('/optimize_me/get_campaign_optimization_history', { userId, campaignId: result.campaignId }, { apiKey });
    expect(history.body.results.campaign.history[0].images).toEqual([expect.objectContaining({ id: videoId, width: 1280, height: 720 })]);
  });

  it.each([
    ['campaign', '/campaigns', '"special_ad_categories"', [] as string[]],
    ['ad set', '/adsets', '"optimization_goal"', ['campaign']],
    ['creative', '/adcreatives', '"object_story_spec"', ['adset', 'campaign']],
  ])('a refusal of the %s: exactly what was made deleted, newest first', async (_step, edge, marker, undone) => {
    const { userId, token, account, hashes } = await launchUser(1);
    await injectFault('social', {
      requestIncludes: [token, marker],
      pathIncludes: `act_${account}${edge}`,
      method: 'POST',
      status: 400,
      body: { error: { message: 'Invalid parameter', type: 'OAuthException', code: 100, error_subcode: 1885183, fbtrace_id: 'AxSTEP' } },
    });
    const started = await call(LAUNCH, launchOf(userId, hashes), { apiKey });
    const { job } = await jobToEnd(apiKey, started.body.results.jobId);
    expect(job.status).toBe('failed');
    expect(job.error).toMatchObject({ code: 'PLATFORM_REJECTED', platform: { code: 100, subcode: 1885183, traceId: 'AxSTEP' } });
    expect((job as { rolledBack?: boolean }).rolledBack).toBe(true);
    const steps = (job.progress as unknown as { steps: Array<{ step: string; platformId?: string }> }).steps;
    const deletes = (await upstreamRequestsWith('social', token))
      .filter((request) => request.method === 'DELETE')
      .map((request) => request.path.split('/').pop());
    expect(deletes).toEqual(undone.map((step) => steps.find((candidate) => candidate.step === step)?.platformId));
  });

  it('activate: the campaign is turned on last, through campaign control (history entry, ACTIVE on the platform)', async () => {
    const { userId, token, hashes } = await launchUser(1);
    const started = await call(LAUNCH, launchOf(userId, hashes, { activate: true }), { apiKey });
    const { job } = await jobToEnd(apiKey, started.body.results.jobId);
    expect(job.status, JSON.stringify(job)).toBe('succeeded');
    const result = job.result as { campaignId: string; status: string };
    expect(result.status).toBe('ACTIVE');
    expect((await sandboxNode(token, result.campaignId)).status).toBe('ACTIVE');
    const history = await call('/optimize_me/get_campaign_optimization_history', { userId, campaignId: result.campaignId }, { apiKey });
    expect(history.body.results.campaign.optimizationStatus).toBe('ACTIVE');
    expect(history.body.results.campaign.history.map((entry: { change?: unknown }) => entry.change).filter(Boolean)).toEqual([
      { field: 'status', from: 'PAUSED', to: 'ACTIVE' },
    ]);
    expect((job.progress as unknown as { steps: Array<{ step: string; status: string }> }).steps.map((step) => `${step.step}:${step.status}`)).toEqual([
      'campaign:done',
      'adset:done',
      'creative:0:done',
      'ad:0:done',
      'activate:done',
    ]);
  });

  it('validateOnly: the platform’s dry runs of the campaign and each creative, {valid, issues}, nothing made, no job', async () => {
    const { userId, token, account, hashes } = await launchUser(1);
    const checked = await call(LAUNCH, launchOf(userId, hashes, { validateOnly: true }), { apiKey });
    expect(checked.status, checked.text).toBe(200);
    expect(checked.body.results).toEqual({ success: true, valid: true, issues: [] });
    const sent = await launchRequests(token);
    expect(sent.map((request) => `${request.method} ${request.path.replace(/^\/v\d+\.\d+\//, '')}`)).toEqual([
      `GET act_${account}`,
      `GET act_${account}/adimages`,
      `POST act_${account}/campaigns`,
      `POST act_${account}/adcreatives`,
    ]);
    for (const request of sent.filter((candidate) => candidate.method === 'POST')) expect(JSON.parse(request.body).execution_options).toBe('["validate_only"]');
    const listed = await call('/social/get_campaigns_list', { userId }, { apiKey });
    expect(JSON.stringify(listed.body.results)).not.toContain('Winter');
  });

  it('one shape for “budget too low”: the dry run lists BUDGET_TOO_LOW with the minimum, INVALID_AMOUNT and MEDIA_NOT_FOUND; the real launch refuses them with the same codes', async () => {
    const { userId, token, hashes } = await launchUser(1);
    const cases: Array<[Record<string, unknown>, Record<string, unknown>]> = [
      [{ dailyBudget: '0.50' }, { field: 'dailyBudget', code: 'BUDGET_TOO_LOW', minimum: { amount: expect.stringMatching(/^\d+\.\d{2}$/), currency: 'USD' } }],
      [{ dailyBudget: '10.005' }, { field: 'dailyBudget', code: 'INVALID_AMOUNT' }],
      [{ ads: [ad('Missing', 'f'.repeat(32))] }, { field: 'ads.0.imageId', code: 'MEDIA_NOT_FOUND' }],
    ];
    for (const [overrides, issue] of cases) {
      const checked = await call(LAUNCH, launchOf(userId, hashes, { ...overrides, validateOnly: true }), { apiKey });
      expect(checked.status, checked.text).toBe(200);
      expect(checked.body.results).toMatchObject({ success: true, valid: false });
      expect(checked.body.results.issues).toContainEqual(expect.objectContaining({ ...issue, message: expect.any(String) }));
      const refused = await call(LAUNCH, launchOf(userId, hashes, overrides), { apiKey });
      expect(refused.status, refused.text).toBe(400);
      const { field, ...rest } = issue;
      expect(refused.body.results.details).toContainEqual(expect.objectContaining({ path: field, ...rest }));
    }
    // only the dry runs' own validate-only creates went out
    expect((await launchWrites(token)).filter((request) => !request.body.includes('validate_only'))).toEqual([]);
  });

  it('a refusal of the second ad: the job deletes what it made, newest first, and ends failed with the platform’s words', async () => {
    const { userId, token, account, hashes } = await launchUser(2);
    await injectFault('social', {
      requestIncludes: ['"name":"Ad 2"', token],
      pathIncludes: `act_${account}/ads`,
      status: 400,
      body: {
        error: {
          message: 'Invalid parameter',
          type: 'OAuthException',
          code: 100,
          error_subcode: 1359188,
          error_user_title: 'No Payment Method',
          error_user_msg: 'Add a payment method to the ad account.',
          fbtrace_id: 'AxTRACE',
        },
      },
    });
    const started = await call(LAUNCH, launchOf(userId, hashes), { apiKey });
    const { job } = await jobToEnd(apiKey, started.body.results.jobId);
    expect(job.status).toBe('failed');
    expect(job.error).toMatchObject({
      code: 'ACCOUNT_NOT_ELIGIBLE',
      platform: { code: 100, subcode: 1359188, userTitle: 'No Payment Method', userMessage: 'Add a payment method to the ad account.', traceId: 'AxTRACE' },
    });
    expect((job as { rolledBack?: boolean }).rolledBack).toBe(true);
    expect((job as { orphans?: unknown[] }).orphans).toEqual([]);
    const receipts = (job.progress as unknown as { steps: Array<{ step: string; status: string; platformId?: string }> }).steps;
    expect(receipts.map((step) => `${step.step}:${step.status}`)).toEqual([
      'campaign:undone',
      'adset:undone',
      'creative:0:undone',
      'ad:0:undone',
      'creative:1:undone',
      'ad:1:pending',
    ]);
    const idOf = (step: string) => receipts.find((candidate) => candidate.step === step)?.platformId;
    const deletes = (await upstreamRequestsWith('social', token))
      .filter((request) => request.method === 'DELETE')
      .map((request) => request.path.split('/').pop());
    expect(deletes).toEqual([idOf('creative:1'), idOf('ad:0'), idOf('creative:0'), idOf('adset'), idOf('campaign')]);
    for (const id of deletes) expect((await sandboxNode(token, id as string)).status).toBe('DELETED');
    await expect.poll(() => eventsOf(job.jobId).map((event) => event.type)).toEqual(['campaign_launch.failed']);
    expect(eventsOf(job.jobId)[0].data).toMatchObject({ rolledBack: true, orphans: [], error: { code: 'ACCOUNT_NOT_ELIGIBLE' } });
    const audit = await call('/tenant/list_audit_events', { userId, action: 'campaign.launch_failed' }, { apiKey });
    expect(audit.body.results.events).toMatchObject([{ outcome: 'failed', error: { code: 'ACCOUNT_NOT_ELIGIBLE' } }]);
  });

  it('deletes that keep failing leave the objects paused and named as orphans: rolledBack false', async () => {
    const { userId, token, account, hashes } = await launchUser(1);
    await injectFault('social', {
      requestIncludes: [token, '"adset_id"'],
      pathIncludes: `act_${account}/ads`,
      status: 400,
      body: { error: { message: 'Invalid parameter', code: 100 } },
    });
    // every delete of this user's objects fails, however often it is tried
    await injectFault('social', {
      requestIncludes: [token],
      method: 'DELETE',
      status: 500,
      body: { error: { message: 'boom', code: 1, is_transient: true } },
      times: 50,
    });
    const started = await call(LAUNCH, launchOf(userId, hashes), { apiKey });
    const { job } = await jobToEnd(apiKey, started.body.results.jobId);
    expect(job.status).toBe('failed');
    expect(job.error?.code).toBe('PLATFORM_REJECTED');
    const steps = (job.progress as unknown as { steps: Array<{ step: string; status: string; platformId?: string }> }).steps;
    const idOf = (step: string) => steps.find((candidate) => candidate.step === step)?.platformId as string;
    expect((job as { rolledBack?: boolean }).rolledBack, JSON.stringify({ job, sent: await launchCalls(token) })).toBe(false);
    expect((job as { orphans?: unknown[] }).orphans, JSON.stringify((await launchWrites(token)).map((r) => r.body))).toEqual([
      { type: 'creative', id: idOf('creative:0') },
      { type: 'adset', id: idOf('adset') },
      { type: 'campaign', id: idOf('campaign') },
    ]);
    expect(steps.map((step) => `${step.step}:${step.status}`)).toEqual(['campaign:orphaned', 'adset:orphaned', 'creative:0:orphaned', 'ad:0:pending']);
    expect((await sandboxNode(token, idOf('campaign'))).status).toBe('PAUSED');
    expect((await sandboxNode(token, idOf('adset'))).status).toBe('PAUSED');
    await expect.poll(() => eventsOf(job.jobId)[0]?.data?.orphans).toHaveLength(3);
  });

  it('throttled: the job parks for the time the platform names and goes on, one ad set made, no read-back', async () => {
    const { userId, token, account, hashes } = await launchUser(1);
    // more throttles than the client's own retries: the job parks at least once (the account's usage names a 1 s reset)
    await injectFault('social', {
      requestIncludes: [token, '"optimization_goal"'],
      pathIncludes: `act_${account}/adsets`,
      status: 400,
      body: { error: { code: 80004, message: 'There have been too many calls to this ad account.', type: 'OAuthException' } },
      headers: { 'x-ad-account-usage': JSON.stringify({ acc_id_util_pct: 100, reset_time_duration: 1 }) },
      times: 4,
    });
    const started = await call(LAUNCH, launchOf(userId, hashes), { apiKey });
    const { job, seen } = await jobToEnd(apiKey, started.body.results.jobId);
    expect(seen.every((view) => view.status !== 'failed')).toBe(true);
    expect(job.status, JSON.stringify(job)).toBe('succeeded');
    const calls = await launchCalls(token);
    expect(calls.filter((entry) => entry === `POST act_${account}/adsets`)).toHaveLength(5);
    expect(calls.some((entry) => entry.endsWith('/adsets') && entry.startsWith('GET'))).toBe(false);
    const result = job.result as { campaignId: string; adSetId: string };
    expect((await sandboxNode(token, result.adSetId)).id).toBe(result.adSetId);
  });

  it('a create whose answer never came is read back by its exact name and adopted: one ad set, no second create', async () => {
    const { userId, token, account, hashes } = await launchUser(1);
    await injectFault('social', {
      requestIncludes: [token, '"optimization_goal"'],
      pathIncludes: `act_${account}/adsets`,
      answerDelayMs: LOST_ANSWER_DELAY_MS,
    });
    const started = await call(LAUNCH, launchOf(userId, hashes), { apiKey });
    const { job } = await jobToEnd(apiKey, started.body.results.jobId);
    expect(job.status, JSON.stringify(job)).toBe('succeeded');
    const result = job.result as { campaignId: string; adSetId: string };
    const calls = await launchCalls(token);
    expect(calls.filter((entry) => entry === `POST act_${account}/adsets`)).toHaveLength(1);
    expect(calls).toContain(`GET ${result.campaignId}/adsets`);
    const readBack = (await upstreamRequestsWith('social', token)).find((request) => request.path.endsWith('/adsets') && request.method === 'GET');
    expect(JSON.parse(readBack?.query.filtering as string)).toEqual([
      { field: 'name', operator: 'EQUAL', value: expect.stringContaining('· ad set') },
      { field: 'created_time', operator: 'GREATER_THAN', value: expect.any(Number) },
    ]);
    expect(result.adSetId).toMatch(/^\d+$/);
  });

  it('refused before anything is queued: decimals the currency cannot hold, below the minimum, an image the account lacks, no job', async () => {
    const { userId, token, hashes } = await launchUser(1);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ dailyBudget: '10.005' }, 'dailyBudget'],
      [{ dailyBudget: '0.50' }, 'dailyBudget'],
      [{ ads: [ad('Missing', 'f'.repeat(32))] }, 'ads.0.imageId'],
      [{ objective: 'SALES' }, 'conversion'],
      [{ specialAdCategories: ['HOUSING'] }, 'specialAdCategoryCountries'],
      [{ ads: [ad('Same', hashes[0] as string), ad('Same', hashes[0] as string)] }, 'ads.1.name'],
    ];
    for (const [overrides, path] of cases) {
      const response = await call(LAUNCH, launchOf(userId, hashes, overrides), { apiKey });
      expect(response.status, JSON.stringify(overrides)).toBe(400);
      expect(response.body.results.code).toBe('INVALID_REQUEST');
      expect(response.body.results.details.map((detail: { path: string }) => detail.path)).toContain(path);
    }
    expect(await launchWrites(token)).toEqual([]);
  });

  it('an image named by its id as get_ad_account_media lists it (<account>:<hash>) is taken; another account’s is refused, nothing made', async () => {
    const { userId, token, account, hashes } = await launchUser(1);
    const listed = await call('/social/get_ad_account_media', { userId, type: 'IMAGE' }, { apiKey });
    const image = (listed.body.results.media as Array<{ id: string; hash: string }>).find((item) => item.hash === hashes[0]);
    expect(image?.id).toBe(`${account}:${hashes[0]}`);
    const other = await call(LAUNCH, launchOf(userId, [`1234567:${hashes[0]}`]), { apiKey });
    expect(other.status).toBe(400);
    expect(other.body.results.details).toEqual([{ path: 'ads.0.imageId', message: expect.stringContaining('not of the user’s connected ad account') }]);
    expect(await launchWrites(token)).toEqual([]);
    const started = await call(LAUNCH, launchOf(userId, [image?.id as string]), { apiKey });
    const { job } = await jobToEnd(apiKey, started.body.results.jobId);
    expect(job.status, JSON.stringify(job)).toBe('succeeded');
    const creative = (await launchWrites(token)).find((request) => request.path.endsWith('/adcreatives'));
    expect(creative?.body).toContain(hashes[0] as string);
    expect(creative?.body).not.toContain(`${account}:`);
  });

  it('an Idempotency-Key replay answers the same job; two launches without a key are two jobs', async () => {
    const { userId, hashes } = await launchUser(1);
    const body = launchOf(userId, hashes);
    const headers = { 'idempotency-key': randomUUID() };
    const first = await call(LAUNCH, body, { apiKey, headers });
    const again = await call(LAUNCH, body, { apiKey, headers });
    expect(again.body.results.jobId).toBe(first.body.results.jobId);
    const other = await call(LAUNCH, { ...body, name: `${body.name} b` }, { apiKey });
    expect(other.body.results.jobId).not.toBe(first.body.results.jobId);
    for (const jobId of [first.body.results.jobId, other.body.results.jobId]) expect((await jobToEnd(apiKey, jobId)).job.status).toBe('succeeded');
  });

  it('a disabled account is refused ACCOUNT_NOT_ELIGIBLE before anything is made; another tenant cannot see the job', async () => {
    const { userId, token } = await launchUser(0, '1200000000000005');
    const response = await call(LAUNCH, launchOf(userId, [], { ads: [ad('One', '53599e92b82cb16dc38bd65259fff0ea')] }), { apiKey });
    expect(response.status).toBe(200);
    expect(response.body.results).toMatchObject({ success: false, code: 'ACCOUNT_NOT_ELIGIBLE', error: expect.stringContaining('not active (status 2') });
    expect(await launchWrites(token)).toEqual([]);

    const { userId: owner, hashes } = await launchUser(1);
    const started = await call(LAUNCH, launchOf(owner, hashes), { apiKey });
    const stranger = await newTenant();
    const seen = await call('/jobs/get_job', { jobId: started.body.results.jobId }, { apiKey: stranger });
    expect(seen.status).toBe(404);
  });
});
