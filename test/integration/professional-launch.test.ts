import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { organizationOf, SANDBOX_CANCELED_ACCOUNT, SANDBOX_HELD_ACCOUNT } from '../../local/sandbox/professional-campaigns.ts';
import { SANDBOX_LIBRARY } from '../../local/sandbox/professional-media.ts';
import { samplePng } from '../../local/sandbox/sample-media.ts';
import { call, newTenant, newUser, stack } from '../helpers/api.ts';
import { injectFault, upstreamRequestsWith } from '../helpers/sandbox.ts';
import { scriptedServer, webhookEvents } from '../helpers/scripted-server.ts';
import { LOST_ANSWER_DELAY_MS } from '../helpers/timing.ts';
import { jobToEnd } from '../helpers/uploads.ts';

/**
 * A whole professional-network campaign in one call (docs/decisions.md, "Launching a whole campaign
 * (professional)"): the request reads the account and the media, the job makes the campaign group, the
 * campaign and a creative per ad, all DRAFT, one receipt each; a refusal deletes the drafts newest
 * first; a lost answer is read back by name under the parent; activation is group, creatives, campaign.
 */
const LAUNCH = '/professional/create_campaign';
let apiKey = '';
let receiver: Awaited<ReturnType<typeof scriptedServer>>;
beforeAll(async () => {
  receiver = await scriptedServer(() => ({ status: 200 }));
  apiKey = await newTenant();
  await call('/tenant/update_settings', { webhook: { url: `${receiver.url}/launch` } }, { apiKey });
});
afterAll(() => receiver.close());

const eventsOf = (jobId: string) => webhookEvents(receiver.received).filter((event) => event.data?.jobId === jobId);
const sandbox = () => stack().sandboxes.professional;
const restli = (token: string) => ({ authorization: `Bearer ${token}`, 'linkedin-version': '202608', 'x-restli-protocol-version': '2.0.0' });

let accounts = 0;
/** A user on an ad account (and organization) of its own, with `images` processed images and `videos` videos its organization owns. */
async function launchUser(images = 2, videos = 0, processingSeconds = 0) {
  const adAccountId = String(520_000_000 + (Date.now() % 1_000) * 100 + accounts++);
  const token = `AQVlaunch${randomBytes(10).toString('hex')}`;
  const userId = await newUser(apiKey, { professional: { accessToken: token, adAccountId } });
  const owner = organizationOf(adAccountId);
  await fetch(`${sandbox()}/__sandbox/media-processing`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ owner, seconds: processingSeconds }),
  });
  const media: string[] = [];
  for (let index = 0; index < images + videos; index++) {
    const kind = index < images ? 'images' : 'videos';
    const request = kind === 'images' ? { owner } : { owner, fileSizeBytes: 1000, uploadCaptions: false, uploadThumbnail: false };
    const started = await fetch(`${sandbox()}/rest/${kind}?action=initializeUpload`, {
      method: 'POST',
      headers: { ...restli(token), 'content-type': 'application/json' },
      body: JSON.stringify({ initializeUploadRequest: request }),
    });
    const { value } = (await started.json()) as {
      value: { uploadUrl?: string; image?: string; video?: string; uploadInstructions?: Array<{ uploadUrl: string }> };
    };
    if (kind === 'images') {
      await fetch(value.uploadUrl as string, { method: 'PUT', headers: { authorization: `Bearer ${token}` }, body: samplePng(1200 + index, 627) });
      media.push(value.image as string);
    } else {
      const part = await fetch(value.uploadInstructions?.[0]?.uploadUrl as string, { method: 'PUT', body: Buffer.alloc(1000, index) });
      await fetch(`${sandbox()}/rest/videos?action=finalizeUpload`, {
        method: 'POST',
        headers: { ...restli(token), 'content-type': 'application/json' },
        body: JSON.stringify({ finalizeUploadRequest: { video: value.video, uploadToken: '', uploadedPartIds: [part.headers.get('etag')] } }),
      });
      media.push(value.video as string);
    }
  }
  return { userId, token, adAccountId, owner, media };
}

const ad = (name: string, media: string) => ({
  name,
  ...(media.startsWith('urn:li:video:') ? { videoId: media } : { imageId: media }),
  commentary: `Join our webinar: ${name}.`,
  headline: 'Save your seat',
  link: 'https://www.example.com/webinar',
  callToAction: 'REGISTER',
});

const launchOf = (userId: string, media: string[], overrides: Record<string, unknown> = {}) => ({
  userId,
  name: `Webinar ${randomUUID().slice(0, 8)}`,
  objective: 'WEBSITE_VISITS',
  dailyBudget: '50.00',
  targeting: { locations: ['urn:li:geo:103644278'] },
  ads: media.map((urn, index) => ad(`Ad ${index + 1}`, urn)),
  ...overrides,
});

/** The launch's calls as the platform saw them (the test's own media uploads left out): method and path with its query. */
const launchCalls = async (token: string) =>
  (await upstreamRequestsWith('professional', token))
    .filter((request) => !/\/(images|videos)$/.test(request.path))
    .filter((request) => !request.path.startsWith('/dms-uploads'))
    .map((request) => `${request.method} ${request.path.replace(/^\/rest/, '')}${request.query.action ? `?action=${request.query.action}` : ''}`);
const writesOf = async (token: string) =>
  (await upstreamRequestsWith('professional', token)).filter((request) => request.method !== 'GET' && /adAccounts/.test(request.path));

const platformGet = async (token: string, path: string) => {
  const response = await fetch(`${sandbox()}/rest${path}`, { headers: restli(token) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};
type Steps = Array<{ step: string; status: string; platformId?: string }>;
const stepsOf = (job: { progress: unknown }) => (job.progress as { steps: Steps }).steps;

describe('create_campaign on the professional network', () => {
  it('two image ads: group, campaign and creatives DRAFT in that order, the exact bodies, result, history, audit and webhook', async () => {
    const { userId, token, adAccountId, owner, media } = await launchUser(2);
    const body = launchOf(userId, media, { targeting: { locations: ['urn:li:geo:103644278'], seniorities: ['urn:li:seniority:6'] } });
    const started = await call(LAUNCH, body, { apiKey });
    expect(started.status, started.text).toBe(200);
    expect(started.body.results).toEqual({ success: true, jobId: expect.stringMatching(/^job_/), status: 'queued' });
    const { job } = await jobToEnd(apiKey, started.body.results.jobId);
    expect(job.status, JSON.stringify(job)).toBe('succeeded');
    const result = job.result as { campaignId: string; campaignGroupId: string; ads: Array<{ adId: string; creativeId: string }>; status: string };
    expect(result).toEqual({
      campaignId: expect.stringMatching(/^\d+$/),
      campaignGroupId: expect.stringMatching(/^\d+$/),
      ads: [
        { adId: expect.stringMatching(/^urn:li:sponsoredCreative:\d+$/), creativeId: expect.stringMatching(/^urn:li:sponsoredCreative:\d+$/) },
        { adId: expect.stringMatching(/^urn:li:sponsoredCreative:\d+$/), creativeId: expect.stringMatching(/^urn:li:sponsoredCreative:\d+$/) },
      ],
      status: 'PAUSED',
    });
    expect(result.ads[0]?.adId).toBe(result.ads[0]?.creativeId);
    const calls = await launchCalls(token);
    // the account, then each image (read at once, in any order), then the creates in order
    expect(calls.slice(0, 3).sort()).toEqual([`GET /adAccounts/${adAccountId}`, ...media.map((urn) => `GET /images/${encodeURIComponent(urn)}`)].sort());
    expect(calls[0]).toBe(`GET /adAccounts/${adAccountId}`);
    expect(calls.slice(3)).toEqual([
      `POST /adAccounts/${adAccountId}/adCampaignGroups`,
      `POST /adAccounts/${adAccountId}/adCampaigns`,
      `POST /adAccounts/${adAccountId}/creatives?action=createInline`,
      `POST /adAccounts/${adAccountId}/creatives?action=createInline`,
    ]);
    const sent = (await writesOf(token)).map((request) => JSON.parse(request.body));
    expect(sent[0]).toEqual({
      account: `urn:li:sponsoredAccount:${adAccountId}`,
      name: body.name,
      status: 'DRAFT',
      runSchedule: { start: expect.any(Number) },
    });
    expect(sent[1]).toEqual({
      account: `urn:li:sponsoredAccount:${adAccountId}`,
      campaignGroup: `urn:li:sponsoredCampaignGroup:${result.campaignGroupId}`,
      associatedEntity: owner,
      name: body.name,
      type: 'SPONSORED_UPDATES',
      format: 'STANDARD_UPDATE',
      objectiveType: 'WEBSITE_VISIT',
      optimizationTargetType: 'MAX_CLICK',
      costType: 'CPM',
      dailyBudget: { amount: '50.00', currencyCode: 'USD' },
      runSchedule: { start: expect.any(Number) },
      locale: { country: 'US', language: 'en' },
      targetingCriteria: {
        include: {
          and: [
            { or: { 'urn:li:adTargetingFacet:locations': ['urn:li:geo:103644278'] } },
            { or: { 'urn:li:adTargetingFacet:interfaceLocales': ['urn:li:locale:en_US'] } },
            { or: { 'urn:li:adTargetingFacet:seniorities': ['urn:li:seniority:6'] } },
          ],
        },
      },
      offsiteDeliveryEnabled: false,
      audienceExpansionEnabled: false,
      politicalIntent: 'NOT_POLITICAL',
      status: 'DRAFT',
    });
    expect(sent[2]).toEqual({
      creative: {
        campaign: `urn:li:sponsoredCampaign:${result.campaignId}`,
        intendedStatus: 'DRAFT',
        name: 'Ad 1',
        inlineContent: {
          post: {
            adContext: { dscAdAccount: `urn:li:sponsoredAccount:${adAccountId}`, dscStatus: 'ACTIVE' },
            author: owner,
            commentary: 'Join our webinar: Ad 1.',
            visibility: 'PUBLIC',
            distribution: { feedDistribution: 'NONE', targetEntities: [], thirdPartyDistributionChannels: [] },
            lifecycleState: 'PUBLISHED',
            isReshareDisabledByAuthor: false,
            contentLandingPage: 'https://www.example.com/webinar',
            contentCallToActionLabel: 'REGISTER',
            content: { media: { id: media[0], title: 'Save your seat' } },
          },
        },
      },
    });
    // everything is a draft on the platform
    expect((await platformGet(token, `/adAccounts/${adAccountId}/adCampaignGroups/${result.campaignGroupId}`)).body.status).toBe('DRAFT');
    expect((await platformGet(token, `/adAccounts/${adAccountId}/adCampaigns/${result.campaignId}`)).body.status).toBe('DRAFT');
    const creative = await platformGet(token, `/adAccounts/${adAccountId}/creatives/${encodeURIComponent(result.ads[1]?.creativeId as string)}`);
    expect(creative.body).toMatchObject({ intendedStatus: 'DRAFT', campaign: `urn:li:sponsoredCampaign:${result.campaignId}` });

    const history = await call('/optimize_me/get_campaign_optimization_history', { userId, campaignId: result.campaignId }, { apiKey });
    expect(history.body.results.campaign).toMatchObject({ campaignName: body.name, platform: 'professional', optimizationStatus: 'PAUSED' });
    expect(history.body.results.campaign.history).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          adId: result.ads[0]?.adId,
          adSetId: result.campaignId,
          headlines: [{ newText: 'Save your seat', oldText: '' }],
          primaryTexts: [{ newText: 'Join our webinar: Ad 1.', oldText: '' }],
          images: [expect.objectContaining({ id: media[0], url: expect.stringContaining('https://') })],
        }),
      ]),
    );
    const audit = await call('/tenant/list_audit_events', { userId }, { apiKey });
    expect(audit.body.results.events.map((event: { action: string }) => event.action)).toEqual(
      expect.arrayContaining(['campaign_launch.started', 'campaign.launched']),
    );
    await expect.poll(() => eventsOf(job.jobId).map((event) => event.type)).toEqual(['campaign_launch.succeeded']);
    expect(eventsOf(job.jobId)[0].data).toMatchObject({
      status: 'succeeded',
      result: { campaignId: result.campaignId, campaignGroupId: result.campaignGroupId },
    });
  });

  it.each([
    ['BRAND_AWARENESS', 'BRAND_AWARENESS', 'MAX_IMPRESSION', {}, 'images'],
    ['ENGAGEMENT', 'ENGAGEMENT', 'MAX_CLICK', {}, 'images'],
    ['LEAD_GENERATION', 'LEAD_GENERATION', 'MAX_LEAD', { leadFormId: '4400001' }, 'images'],
    ['VIDEO_VIEWS', 'VIDEO_VIEW', 'MAX_VIDEO_VIEW', { costType: 'CPV' }, 'videos'],
  ] as const)('%s: the platform’s objective %s with goal %s', async (objective, objectiveType, goal, extra, kind) => {
    const { userId, token, media } = await launchUser(kind === 'images' ? 1 : 0, kind === 'videos' ? 1 : 0);
    const started = await call(LAUNCH, launchOf(userId, media, { objective, ...extra }), { apiKey });
    expect(started.status, started.text).toBe(200);
    const { job } = await jobToEnd(apiKey, started.body.results.jobId);
    expect(job.status, JSON.stringify(job)).toBe('succeeded');
    const [, campaign, creative] = (await writesOf(token)).map((request) => JSON.parse(request.body));
    expect(campaign).toMatchObject({ objectiveType, optimizationTargetType: goal, format: kind === 'videos' ? 'SINGLE_VIDEO' : 'STANDARD_UPDATE' });
    if (objective === 'LEAD_GENERATION') {
      expect(creative.creative.leadgenCallToAction).toEqual({ destination: 'urn:li:adForm:4400001', label: 'REGISTER' });
      expect(creative.creative.inlineContent.post.contentCallToActionLabel).toBeUndefined();
    }
    if (kind === 'videos') expect(creative.creative.inlineContent.post.content.media.id).toMatch(/^urn:li:video:/);
  });

  it('activate: group, then each creative, then the campaign, through campaign control; all ACTIVE on the platform', async () => {
    const { userId, token, adAccountId, media } = await launchUser(2);
    const started = await call(LAUNCH, launchOf(userId, media, { activate: true }), { apiKey });
    const { job } = await jobToEnd(apiKey, started.body.results.jobId);
    expect(job.status, JSON.stringify(job)).toBe('succeeded');
    const result = job.result as { campaignId: string; campaignGroupId: string; ads: Array<{ creativeId: string }>; status: string };
    expect(result.status).toBe('ACTIVE');
    const updates = (await writesOf(token)).filter((request) => request.headers['x-restli-method'] === 'PARTIAL_UPDATE');
    expect(updates.map((request) => `${decodeURIComponent(request.path.replace(/^\/rest/, ''))} ${request.body}`)).toEqual([
      `/adAccounts/${adAccountId}/adCampaignGroups/${result.campaignGroupId} {"patch":{"$set":{"status":"ACTIVE"}}}`,
      ...result.ads.map((entry) => `/adAccounts/${adAccountId}/creatives/${entry.creativeId} {"patch":{"$set":{"intendedStatus":"ACTIVE"}}}`),
      `/adAccounts/${adAccountId}/adCampaigns/${result.campaignId} {"patch":{"$set":{"status":"ACTIVE"}}}`,
    ]);
    expect((await platformGet(token, `/adAccounts/${adAccountId}/adCampaigns/${result.campaignId}`)).body.status).toBe('ACTIVE');
    expect((await platformGet(token, `/adAccounts/${adAccountId}/adCampaignGroups/${result.campaignGroupId}`)).body.status).toBe('ACTIVE');
    expect(stepsOf(job).map((step) => `${step.step}:${step.status}`)).toEqual([
      'group:done',
      'campaign:done',
      'creative:0:done',
      'creative:1:done',
      'activate:done',
    ]);
  });

  it('a launched draft turned on later by update_campaign_status ACTIVE: the same cascade', async () => {
    const { userId, token, adAccountId, media } = await launchUser(1);
    const started = await call(LAUNCH, launchOf(userId, media), { apiKey });
    const { job } = await jobToEnd(apiKey, started.body.results.jobId);
    const result = job.result as { campaignId: string; campaignGroupId: string; ads: Array<{ creativeId: string }> };
    const turned = await call('/professional/update_campaign_status', { userId, campaignId: result.campaignId, status: 'ACTIVE' }, { apiKey });
    expect(turned.status, turned.text).toBe(200);
    expect(turned.body.results).toMatchObject({ status: 'ACTIVE', changed: true });
    const creative = await platformGet(token, `/adAccounts/${adAccountId}/creatives/${encodeURIComponent(result.ads[0]?.creativeId as string)}`);
    expect(creative.body.intendedStatus).toBe('ACTIVE');
    expect((await platformGet(token, `/adAccounts/${adAccountId}/adCampaignGroups/${result.campaignGroupId}`)).body.status).toBe('ACTIVE');
  });

  it.each([
    ['group', 'adCampaignGroups', [] as string[]],
    ['campaign', 'adCampaigns', ['group']],
    ['creative of ad 2', 'creatives', ['creative:0', 'campaign', 'group']],
  ])('a refusal of the %s: the drafts deleted newest first, nothing left, the platform’s code', async (_step, path, undone) => {
    const { userId, token, adAccountId, media } = await launchUser(2);
    await injectFault('professional', {
      requestIncludes: path === 'creatives' ? [token, '"name":"Ad 2"'] : [token],
      pathIncludes: `/adAccounts/${adAccountId}/${path}`,
      method: 'POST',
      status: 400,
      body: {
        status: 400,
        serviceErrorCode: 100,
        code: 'INVALID_VALUE',
        message: 'Something the platform refuses',
        errorDetails: { inputErrors: [{ description: 'refused', input: { inputPath: { fieldPath: '/name' } }, code: 'INVALID_VALUE' }] },
      },
    });
    const started = await call(LAUNCH, launchOf(userId, media), { apiKey });
    const { job } = await jobToEnd(apiKey, started.body.results.jobId);
    expect(job.status).toBe('failed');
    expect(job.error).toMatchObject({ code: 'PLATFORM_REJECTED', platform: { code: 'INVALID_VALUE', subcode: 100 } });
    expect((job as { rolledBack?: boolean }).rolledBack).toBe(true);
    const steps = stepsOf(job);
    const idOf = (step: string) => steps.find((candidate) => candidate.step === step)?.platformId as string;
    const deletes = (await upstreamRequestsWith('professional', token))
      .filter((request) => request.method === 'DELETE')
      .map((request) => decodeURIComponent(request.path));
    const pathOf = (step: string) =>
      step === 'group'
        ? `/rest/adAccounts/${adAccountId}/adCampaignGroups/${idOf(step)}`
        : step === 'campaign'
          ? `/rest/adAccounts/${adAccountId}/adCampaigns/${idOf(step)}`
          : `/rest/adAccounts/${adAccountId}/creatives/${idOf(step)}`;
    expect(deletes).toEqual(undone.map(pathOf));
    for (const step of undone) expect((await platformGet(token, pathOf(step).replace(/^\/rest/, ''))).status).toBe(404);
    await expect.poll(() => eventsOf(job.jobId).map((event) => event.type)).toEqual(['campaign_launch.failed']);
  });

  it('a 403 on createInline with unknown scopes: SCOPE_MISSING naming w_organization_social, and the drafts undone', async () => {
    const { userId, token, adAccountId, media } = await launchUser(1);
    await injectFault('professional', {
      requestIncludes: [token],
      pathIncludes: `/adAccounts/${adAccountId}/creatives`,
      method: 'POST',
      status: 403,
      body: { status: 403, serviceErrorCode: 100, code: 'ACCESS_DENIED', message: 'Not enough permissions to access: partnerApiPostsExternal.CREATE.20260801' },
    });
    const started = await call(LAUNCH, launchOf(userId, media), { apiKey });
    const { job } = await jobToEnd(apiKey, started.body.results.jobId);
    expect(job.status).toBe('failed');
    expect(job.error?.code).toBe('SCOPE_MISSING');
    expect(job.error?.message).toContain('w_organization_social');
    expect((job as { rolledBack?: boolean }).rolledBack).toBe(true);
  });

  it('deletes that keep failing: the drafts left as drafts (they never run) and named as orphans, rolledBack false', async () => {
    const { userId, token, adAccountId, media } = await launchUser(1);
    await injectFault('professional', {
      requestIncludes: [token],
      pathIncludes: `/adAccounts/${adAccountId}/creatives`,
      method: 'POST',
      status: 400,
      body: { status: 400, message: 'no' },
    });
    await injectFault('professional', { requestIncludes: [token], method: 'DELETE', status: 500, body: { status: 500, message: 'boom' }, times: 50 });
    await injectFault('professional', { requestIncludes: [token, 'PENDING_DELETION'], status: 500, body: { status: 500, message: 'boom' }, times: 50 });
    await injectFault('professional', { requestIncludes: [token, 'ARCHIVED'], status: 500, body: { status: 500, message: 'boom' }, times: 50 });
    const started = await call(LAUNCH, launchOf(userId, media), { apiKey });
    const { job } = await jobToEnd(apiKey, started.body.results.jobId);
    expect(job.status).toBe('failed');
    const steps = stepsOf(job);
    const idOf = (step: string) => steps.find((candidate) => candidate.step === step)?.platformId as string;
    expect((job as { rolledBack?: boolean }).rolledBack).toBe(false);
    expect((job as { orphans?: unknown[] }).orphans).toEqual([
      { type: 'campaign', id: idOf('campaign') },
      { type: 'campaign_group', id: idOf('group') },
    ]);
    expect((await platformGet(token, `/adAccounts/${adAccountId}/adCampaigns/${idOf('campaign')}`)).body.status).toBe('DRAFT');
    // each was read before it was left: a draft is not set PAUSED
    const left = (await upstreamRequestsWith('professional', token)).filter((request) => request.body.includes('"PAUSED"'));
    expect(left).toEqual([]);
    await expect.poll(() => eventsOf(job.jobId)[0]?.data?.orphans).toHaveLength(2);
  });

  it('a campaign create whose answer never came is found under its group by name and adopted: one campaign', async () => {
    const { userId, token, adAccountId, media } = await launchUser(1);
    await injectFault('professional', {
      requestIncludes: [token, '"campaignGroup"'],
      pathIncludes: `/adAccounts/${adAccountId}/adCampaigns`,
      method: 'POST',
      answerDelayMs: LOST_ANSWER_DELAY_MS,
    });
    const body = launchOf(userId, media, { name: `Webinar (Q1), north: ${randomUUID().slice(0, 6)}` });
    const started = await call(LAUNCH, body, { apiKey });
    const { job } = await jobToEnd(apiKey, started.body.results.jobId);
    expect(job.status, JSON.stringify(job)).toBe('succeeded');
    const result = job.result as { campaignId: string; campaignGroupId: string };
    const requests = await upstreamRequestsWith('professional', token);
    expect(requests.filter((request) => request.method === 'POST' && request.path.endsWith('/adCampaigns'))).toHaveLength(1);
    const readBack = requests.find((request) => request.method === 'GET' && request.path.endsWith('/adCampaigns'));
    const encode = (value: string) => encodeURIComponent(value).replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
    expect(readBack?.query.search).toBe(
      `(campaignGroup:(values:List(urn:li:sponsoredCampaignGroup:${result.campaignGroupId})),name:(values:List(${body.name})))`,
    );
    expect(readBack?.path).toBe(`/rest/adAccounts/${adAccountId}/adCampaigns`);
    // inside a value, spaces and Rest.li's reserved ( ) , : are percent-encoded
    expect(readBack?.rawQuery).toContain(`name:(values:List(${encode(body.name)}))`);
    expect(encode(body.name)).toMatch(/%28Q1%29%2C%20north%3A/);
  });

  it('throttled: the job parks (the platform’s Retry-After, when it sends one, sooner than our backoff) and goes on, one group made', async () => {
    const { userId, token, adAccountId, media } = await launchUser(1);
    // more 429s than the client's own retries: the job parks at least once
    await injectFault('professional', {
      requestIncludes: [token],
      pathIncludes: `/adAccounts/${adAccountId}/adCampaignGroups`,
      method: 'POST',
      status: 429,
      headers: { 'retry-after': '1' },
      body: { status: 429, message: 'Resource level throttle APPLICATION DAY limit for calls to this resource is reached.' },
      times: 4,
    });
    const started = await call(LAUNCH, launchOf(userId, media), { apiKey });
    const { job, seen } = await jobToEnd(apiKey, started.body.results.jobId);
    expect(seen.every((view) => view.status !== 'failed')).toBe(true);
    expect(job.status, JSON.stringify(job)).toBe('succeeded');
    const posts = (await upstreamRequestsWith('professional', token)).filter(
      (request) => request.method === 'POST' && request.path.endsWith('/adCampaignGroups'),
    );
    expect(posts).toHaveLength(5);
    // no read-back was needed: a 429 made nothing
    expect((await upstreamRequestsWith('professional', token)).some((request) => request.method === 'GET' && request.path.endsWith('/adCampaignGroups'))).toBe(
      false,
    );
    const groups = await platformGet(token, `/adAccounts/${adAccountId}/adCampaignGroups?q=search&search=(status:(values:List(DRAFT)))`);
    expect((groups.body.elements as unknown[]).length).toBe(1);
  });

  it('validateOnly: our checks and the account’s, labelled as such; nothing made, no job', async () => {
    const { userId, token, media } = await launchUser(1);
    const checked = await call(LAUNCH, launchOf(userId, media, { validateOnly: true }), { apiKey });
    expect(checked.status, checked.text).toBe(200);
    expect(checked.body.results).toEqual({ success: true, valid: true, issues: [], checkedBy: 'service' });
    expect((await launchCalls(token)).every((entry) => entry.startsWith('GET'))).toBe(true);
  });

  it('validateOnly with an image still processing: MEDIA_NOT_READY among the issues, nothing made', async () => {
    const { userId, token, media } = await launchUser(1, 0, 3_600);
    const checked = await call(LAUNCH, launchOf(userId, media, { validateOnly: true }), { apiKey });
    expect(checked.body.results).toMatchObject({ valid: false, issues: [{ field: 'ads.0.imageId', code: 'MEDIA_NOT_READY' }], checkedBy: 'service' });
    expect((await launchCalls(token)).every((entry) => entry.startsWith('GET'))).toBe(true);
  });

  it('refused before anything is queued: cost type, lead form, mixed media, decimals, minimum, unknown and foreign media', async () => {
    const { userId, token, media } = await launchUser(1, 1);
    const other = await launchUser(1);
    const [image, video] = media as [string, string];
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ objective: 'BRAND_AWARENESS', costType: 'CPC' }, 'costType'],
      [{ objective: 'LEAD_GENERATION' }, 'leadFormId'],
      [{ leadFormId: '1' }, 'leadFormId'],
      [{ ads: [ad('One', image), ad('Two', video)] }, 'ads'],
      [{ objective: 'VIDEO_VIEWS', ads: [ad('One', image)] }, 'ads'],
      [{ dailyBudget: '10.005' }, 'dailyBudget'],
      [{ dailyBudget: '9.99' }, 'dailyBudget'],
      [{ ads: [ad('One', 'urn:li:image:D4E10AQNoSuchImage')] }, 'ads.0.imageId'],
      [{ ads: [ad('One', other.media[0] as string)] }, 'ads.0.imageId'],
      [{ ads: [{ ...ad('One', image), commentary: 'x'.repeat(601) }] }, 'ads.0.commentary'],
      [{ ads: [{ ...ad('One', image), headline: 'x'.repeat(201) }] }, 'ads.0.headline'],
      [{ locale: 'xx_XX' }, 'locale'],
      [{ politicalIntent: 'MAYBE' }, 'politicalIntent'],
      [{ targeting: { locations: ['US'] } }, 'targeting.locations.0'],
      [{ startTime: new Date(Date.now() - 86_400_000).toISOString() }, 'startTime'],
    ];
    for (const [overrides, path] of cases) {
      const refused = await call(LAUNCH, launchOf(userId, [image], overrides), { apiKey });
      expect(refused.status, `${JSON.stringify(overrides)} ${refused.text}`).toBe(400);
      expect(refused.body.results.code).toBe('INVALID_REQUEST');
      expect(refused.body.results.details.map((detail: { path: string }) => detail.path)).toContain(path);
    }
    expect((await launchCalls(token)).every((entry) => entry.startsWith('GET'))).toBe(true);
  });

  it.each([
    [SANDBOX_HELD_ACCOUNT, 'BILLING_HOLD'],
    [SANDBOX_CANCELED_ACCOUNT, 'CANCELED'],
  ])('an account that cannot launch (%s, %s): ACCOUNT_NOT_ELIGIBLE in band, nothing made; a dry run lists it', async (adAccountId, why) => {
    const token = `AQVheld${randomBytes(10).toString('hex')}`;
    const userId = await newUser(apiKey, { professional: { accessToken: token, adAccountId } });
    const body = launchOf(userId, [SANDBOX_LIBRARY.images[0] as string], { organizationId: '2400001' });
    const refused = await call(LAUNCH, body, { apiKey });
    expect(refused.status, refused.text).toBe(200);
    expect(refused.body.results).toMatchObject({ success: false, code: 'ACCOUNT_NOT_ELIGIBLE', error: expect.stringContaining(why) });
    const checked = await call(LAUNCH, { ...body, validateOnly: true }, { apiKey });
    expect(checked.body.results).toMatchObject({ valid: false, issues: [{ field: 'userId', code: 'ACCOUNT_NOT_ELIGIBLE' }], checkedBy: 'service' });
    expect((await launchCalls(token)).every((entry) => entry.startsWith('GET'))).toBe(true);
  });

  it('one shape for “budget too low”: the dry run lists BUDGET_TOO_LOW with the minimum and MEDIA_NOT_FOUND; the real launch refuses them with the same codes', async () => {
    const { userId, token, media } = await launchUser(1);
    const cases: Array<[Record<string, unknown>, Record<string, unknown>]> = [
      [{ dailyBudget: '9.99' }, { field: 'dailyBudget', code: 'BUDGET_TOO_LOW', minimum: { amount: '10', currency: 'USD' } }],
      [{ dailyBudget: '10.005' }, { field: 'dailyBudget', code: 'INVALID_AMOUNT' }],
      [{ ads: [ad('One', 'urn:li:image:D4E10AQNoSuchImage')] }, { field: 'ads.0.imageId', code: 'MEDIA_NOT_FOUND' }],
    ];
    for (const [overrides, issue] of cases) {
      const checked = await call(LAUNCH, launchOf(userId, media, { ...overrides, validateOnly: true }), { apiKey });
      expect(checked.status, checked.text).toBe(200);
      expect(checked.body.results).toMatchObject({ success: true, valid: false, checkedBy: 'service' });
      expect(checked.body.results.issues).toContainEqual(expect.objectContaining({ ...issue, message: expect.any(String) }));
      const refused = await call(LAUNCH, launchOf(userId, media, overrides), { apiKey });
      expect(refused.status, refused.text).toBe(400);
      const { field, ...rest } = issue;
      expect(refused.body.results.details).toContainEqual(expect.objectContaining({ path: field, ...rest }));
    }
    expect((await launchCalls(token)).every((entry) => entry.startsWith('GET'))).toBe(true);
  });

  it('an Idempotency-Key replay answers the same job; another tenant cannot read it', async () => {
    const { userId, media } = await launchUser(1);
    const body = launchOf(userId, media);
    const key = randomUUID();
    const first = await call(LAUNCH, body, { apiKey, headers: { 'idempotency-key': key } });
    const again = await call(LAUNCH, body, { apiKey, headers: { 'idempotency-key': key } });
    expect(again.body.results.jobId).toBe(first.body.results.jobId);
    const other = await newTenant();
    const foreign = await call('/jobs/get_job', { jobId: first.body.results.jobId }, { apiKey: other });
    expect(foreign.status).toBe(404);
    const { job } = await jobToEnd(apiKey, first.body.results.jobId);
    expect(job.status).toBe('succeeded');
  });
});
