import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_CONNECTIONS } from '../../local/sandbox/demo-data.ts';
import { call, newTenant } from '../helpers/api.ts';
import { injectFault, upstreamRequestsWith } from '../helpers/sandbox.ts';
import { expectedProof, newSocialUser } from '../helpers/social.ts';

/**
 * The social operations through the gateway against the social sandbox: our answers, and exactly
 * what went upstream.
 */
const ACCOUNT = DEMO_CONNECTIONS.social.adAccountId;
const PAGE = DEMO_CONNECTIONS.social.pageId;
let apiKey = '';
beforeAll(async () => {
  apiKey = await newTenant();
});

describe('get_ad_account_media', () => {
  it('IMAGE: asks for exactly the spec fields and the hash a launch names, and maps them', async () => {
    const { userId, token } = await newSocialUser(apiKey);
    const response = await call('/social/get_ad_account_media', { userId, type: 'IMAGE' }, { apiKey });
    expect(response.status).toBe(200);
    const { media, paging } = response.body.results;
    expect(media).toHaveLength(25);
    expect(media[0]).toEqual({
      id: expect.stringMatching(new RegExp(`^${ACCOUNT}:[0-9a-f]{32}$`)),
      hash: expect.stringMatching(/^[0-9a-f]{32}$/),
      url: expect.stringMatching(/^https:/),
      width: 1200,
      height: 628,
    });
    for (const item of media) expect(Object.keys(item).sort()).toEqual(['hash', 'height', 'id', 'url', 'width']);
    for (const item of media) expect(item.id).toBe(`${ACCOUNT}:${item.hash}`);
    expect(paging).toEqual({ next: expect.stringMatching(/^after:/) });

    const [upstream, ...others] = await upstreamRequestsWith('social', token);
    expect(others).toEqual([]);
    expect(upstream?.method).toBe('GET');
    expect(upstream?.path).toBe(`/v26.0/act_${ACCOUNT}/adimages`);
    expect(upstream?.query).toEqual({ fields: 'id,hash,url,width,height', limit: '25', access_token: token, appsecret_proof: expectedProof(token) });
  });

  it('VIDEO: every format with its five fields', async () => {
    const { userId, token } = await newSocialUser(apiKey);
    const response = await call('/social/get_ad_account_media', { userId, type: 'VIDEO' }, { apiKey });
    expect(response.status).toBe(200);
    const { media, paging } = response.body.results;
    expect(media).toHaveLength(7);
    expect(paging).toEqual({});
    const first = media[0];
    expect(Object.keys(first).sort()).toEqual(['format', 'id']);
    expect(first.format.length).toBeGreaterThanOrEqual(3);
    expect(first.format.map((format: { filter: string }) => format.filter)).toContain('native');
    for (const format of first.format) {
      expect(format).toEqual({
        embed_html: expect.stringContaining('<iframe'),
        filter: expect.any(String),
        width: expect.any(Number),
        height: expect.any(Number),
        picture: expect.stringMatching(/^https:/),
      });
    }
    const [upstream] = await upstreamRequestsWith('social', token);
    expect(upstream?.path).toBe(`/v26.0/act_${ACCOUNT}/advideos`);
    expect(upstream?.query.fields).toBe('id,format');
  });

  it('pages three times through pagination and back, never exposing an upstream URL', async () => {
    const { userId, token } = await newSocialUser(apiKey);
    const first = await call('/social/get_ad_account_media', { userId, type: 'IMAGE' }, { apiKey });
    const second = await call('/social/get_ad_account_media', { userId, type: 'IMAGE', pagination: first.body.results.paging.next }, { apiKey });
    const third = await call('/social/get_ad_account_media', { userId, type: 'IMAGE', pagination: second.body.results.paging.next }, { apiKey });
    expect(second.body.results.media).toHaveLength(25);
    // the 60 seeded images, and any another test uploaded into the demo account (upload_ad_media's sample event)
    const last = third.body.results.media.length;
    expect(last).toBeGreaterThanOrEqual(10);
    expect(last).toBeLessThanOrEqual(25);
    expect(second.body.results.paging).toEqual({ next: expect.stringMatching(/^after:/), previous: expect.stringMatching(/^before:/) });
    expect(third.body.results.paging).toEqual({ previous: expect.stringMatching(/^before:/) });

    const ids = [first, second, third].flatMap((page) => page.body.results.media.map((item: { id: string }) => item.id));
    expect(new Set(ids).size).toBe(50 + last);

    const back = await call('/social/get_ad_account_media', { userId, type: 'IMAGE', pagination: third.body.results.paging.previous }, { apiKey });
    expect(back.body.results.media).toEqual(second.body.results.media);

    for (const page of [first, second, third, back]) {
      expect(page.text).not.toContain(token);
      expect(page.text).not.toContain('access_token');
      expect(JSON.stringify(page.body.results.paging)).not.toMatch(/https?:/);
    }
    const upstream = await upstreamRequestsWith('social', token);
    expect(upstream.map((request) => request.query.after ?? request.query.before ?? '')).toEqual([
      '',
      first.body.results.paging.next.slice('after:'.length),
      second.body.results.paging.next.slice('after:'.length),
      third.body.results.paging.previous.slice('before:'.length),
    ]);
    expect(upstream[3]?.query.before).toBeDefined();
  });

  it('refuses a pagination value it did not issue, without calling upstream', async () => {
    const { userId, token } = await newSocialUser(apiKey);
    const response = await call(
      '/social/get_ad_account_media',
      { userId, type: 'IMAGE', pagination: 'https://graph.facebook.com/v26.0/act_1/adimages?after=x' },
      { apiKey },
    );
    expect(response.status).toBe(400);
    expect(response.body.results.details).toEqual([{ path: 'pagination', message: 'unrecognised pagination value' }]);
    expect(await upstreamRequestsWith('social', token)).toEqual([]);
  });

  it('refuses an unknown type', async () => {
    const { userId } = await newSocialUser(apiKey);
    const response = await call('/social/get_ad_account_media', { userId, type: 'GIF' }, { apiKey });
    expect(response.status).toBe(400);
    expect(response.body.results.details[0].path).toBe('type');
  });
});

describe('get_photo_page_media', () => {
  it('looks the photo-page account up once, remembers it, and maps every post', async () => {
    const { userId, token } = await newSocialUser(apiKey);
    const first = await call('/social/get_photo_page_media', { userId }, { apiKey });
    expect(first.status).toBe(200);
    const media = first.body.results.media;
    expect(media).toHaveLength(20);
    expect(first.body.results.paging).toEqual({});
    expect(new Set(media.map((item: { media_type: string }) => item.media_type))).toEqual(new Set(['IMAGE', 'VIDEO', 'CAROUSEL_ALBUM']));
    expect(new Set(media.map((item: { media_product_type: string }) => item.media_product_type))).toEqual(new Set(['FEED', 'REELS', 'AD']));
    expect(media[0]).toEqual({
      id: '17988000000000300',
      caption: 'Post 1: autumn collection #newin',
      media_type: 'IMAGE',
      media_url: expect.stringMatching(/^https:/),
      permalink: 'https://www.instagram.com/p/DSbx0000/',
      timestamp: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T17:22:05\+0000$/),
      ig_id: '3468821947712345600',
      boost_eligibility_info: { eligible_to_boost: true },
      media_product_type: 'FEED',
    });
    // withheld media_url and missing caption stay absent, nothing is invented
    expect(media[7]).not.toHaveProperty('media_url');
    expect(media[11]).not.toHaveProperty('caption');
    expect(media[3].boost_eligibility_info).toEqual({ eligible_to_boost: false });

    await call('/social/get_photo_page_media', { userId }, { apiKey });
    const upstream = await upstreamRequestsWith('social', token);
    expect(upstream.map((request) => request.path)).toEqual([`/v26.0/${PAGE}`, '/v26.0/17841400000000001/media', '/v26.0/17841400000000001/media']);
    expect(upstream[0]?.query.fields).toBe('instagram_business_account');
    expect(upstream[1]?.query).toMatchObject({
      fields: 'id,caption,media_type,media_url,permalink,timestamp,ig_id,boost_eligibility_info,media_product_type',
      limit: '25',
      appsecret_proof: expectedProof(token),
    });
    const profile = await call('/users/get_profile', { userId }, { apiKey });
    expect(profile.body.results.user.connections.social.photoAccountId).toBe('17841400000000001');
  });

  it('uses the photo-page account given in the connection', async () => {
    const { userId, token } = await newSocialUser(apiKey, { photoAccountId: '17841400000000001' });
    expect((await call('/social/get_photo_page_media', { userId }, { apiKey })).status).toBe(200);
    expect((await upstreamRequestsWith('social', token)).map((request) => request.path)).toEqual(['/v26.0/17841400000000001/media']);
  });

  it('answers PLATFORM_NOT_CONNECTED when the connection names no page', async () => {
    const apiKeyOther = await newTenant();
    const { userId, token } = await newSocialUser(apiKeyOther, { pageId: undefined });
    const response = await call('/social/get_photo_page_media', { userId }, { apiKey: apiKeyOther });
    expect(response.status).toBe(409);
    expect(response.body.results).toMatchObject({ code: 'PLATFORM_NOT_CONNECTED', error: expect.stringContaining('pageId') });
    expect(await upstreamRequestsWith('social', token)).toEqual([]);
  });
});

describe('search_targeting_locations', () => {
  it('searches cities by prefix and maps the nine fields', async () => {
    const { userId, token } = await newSocialUser(apiKey);
    const response = await call('/social/search_targeting_locations', { userId, query: 'dub' }, { apiKey });
    expect(response.status).toBe(200);
    const { locations } = response.body.results;
    expect(locations.map((location: { name: string }) => location.name)).toEqual(['Dublin', 'Dublin', 'Dublin', 'Dubai', 'Dubuque', 'Dubbo', 'Dubrovnik']);
    expect(locations[0]).toEqual({
      key: '1051234',
      name: 'Dublin',
      region: 'Dublin',
      country_name: 'Ireland',
      type: 'city',
      country_code: 'IE',
      region_id: 1405,
      supports_region: true,
      supports_city: true,
    });
    const [upstream] = await upstreamRequestsWith('social', token);
    expect(upstream?.path).toBe('/v26.0/search');
    expect(upstream?.query).toMatchObject({ type: 'adgeolocation', q: 'dub', location_types: '["city"]', limit: '25' });
  });

  it('returns reclassified levels and other countries', async () => {
    const { userId } = await newSocialUser(apiKey);
    const brooklyn = await call('/social/search_targeting_locations', { userId, query: 'Brook' }, { apiKey });
    expect(brooklyn.body.results.locations).toEqual([expect.objectContaining({ name: 'Brooklyn', type: 'subcity', country_code: 'US' })]);
    const zurich = await call('/social/search_targeting_locations', { userId, query: 'zur' }, { apiKey });
    expect(zurich.body.results.locations).toEqual([expect.objectContaining({ name: 'Zürich', country_code: 'CH' })]);
  });

  it('refuses an empty query without calling upstream', async () => {
    const { userId, token } = await newSocialUser(apiKey);
    const response = await call('/social/search_targeting_locations', { userId, query: '   ' }, { apiKey });
    expect(response.status).toBe(400);
    expect(response.body.results.details).toEqual([{ path: 'query', message: 'must not be empty' }]);
    expect(await upstreamRequestsWith('social', token)).toEqual([]);
  });
});

describe('get_campaigns_list', () => {
  it('lists every campaign, archived and deleted included, as spec strings', async () => {
    const { userId, token } = await newSocialUser(apiKey);
    const response = await call('/social/get_campaigns_list', { userId }, { apiKey });
    expect(response.status).toBe(200);
    const { campaigns } = response.body.results;
    expect(campaigns).toHaveLength(12);
    expect(new Set(campaigns.map((campaign: { status: string }) => campaign.status))).toEqual(new Set(['ACTIVE', 'PAUSED', 'ARCHIVED', 'DELETED']));
    for (const campaign of campaigns) {
      expect(Object.keys(campaign)).toEqual(['id', 'name', 'objective', 'daily_budget', 'status', 'issues_info', 'created_time']);
      for (const value of Object.values(campaign)) expect(typeof value).toBe('string');
    }
    expect(campaigns[0]).toEqual({
      id: '120210987000000100',
      name: 'Campaign 1 (active)',
      objective: 'OUTCOME_LEADS',
      // the demo campaign: events.test.ts runs edit_campaign's and update_campaign_status's sample events on it in the same stack
      daily_budget: expect.stringMatching(/^\d+$/),
      status: expect.stringMatching(/^(ACTIVE|PAUSED)$/),
      issues_info: '',
      created_time: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T10:15:32-0700$/),
    });
    expect(JSON.parse(campaigns[1].issues_info)).toEqual([expect.objectContaining({ error_code: 1815869, error_summary: 'Ad post is not available' })]);
    expect(campaigns[2].daily_budget).toBe(''); // budget on the ad sets

    const [upstream] = await upstreamRequestsWith('social', token);
    expect(upstream?.path).toBe(`/v26.0/act_${ACCOUNT}/campaigns`);
    expect(upstream?.query).toMatchObject({
      fields: 'id,name,objective,daily_budget,status,issues_info,created_time',
      effective_status: '["ACTIVE","PAUSED","DELETED","ARCHIVED","IN_PROCESS","WITH_ISSUES"]',
      limit: '100',
    });
  });
});

describe('platform errors map onto the error table', () => {
  const imagesOf = (userId: string) => call('/social/get_ad_account_media', { userId, type: 'IMAGE' }, { apiKey });

  it('an expired token → 200 PLATFORM_AUTH_EXPIRED, not retried, token not echoed', async () => {
    const { userId, token } = await newSocialUser(apiKey, { accessToken: 'EAAtestEXPIREDtoken0001' });
    const response = await imagesOf(userId);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      success: true,
      results: { success: false, code: 'PLATFORM_AUTH_EXPIRED', platform: 'social', error: expect.stringContaining('reconnect') },
    });
    expect(response.text).not.toContain(token);
    expect(await upstreamRequestsWith('social', token)).toHaveLength(1);
  });

  it('an unparsable token → PLATFORM_AUTH_EXPIRED', async () => {
    const { userId } = await newSocialUser(apiKey, { accessToken: 'not-a-token' });
    const response = await imagesOf(userId);
    expect(response.body.results.code).toBe('PLATFORM_AUTH_EXPIRED');
  });

  it('a parameter error → PLATFORM_REJECTED with the platform’s message, not retried', async () => {
    const { userId, token } = await newSocialUser(apiKey);
    await injectFault('social', {
      requestIncludes: token,
      status: 400,
      body: {
        error: {
          message: '(#100) Tried accessing nonexisting field (media_urls) on node type (ShadowIGMedia)',
          type: 'OAuthException',
          code: 100,
          fbtrace_id: 'AxT',
        },
      },
    });
    const response = await imagesOf(userId);
    expect(response.status).toBe(200);
    expect(response.body.results).toEqual({
      success: false,
      code: 'PLATFORM_REJECTED',
      platform: 'social',
      error: '(#100) Tried accessing nonexisting field (media_urls) on node type (ShadowIGMedia)',
      platformCode: 100,
      fbtraceId: 'AxT',
    });
    expect(await upstreamRequestsWith('social', token)).toHaveLength(1);
  });

  it('prefers the user-facing message of a rejection', async () => {
    const { userId, token } = await newSocialUser(apiKey);
    await injectFault('social', {
      requestIncludes: token,
      status: 400,
      body: {
        error: {
          message: '(#200) Permissions error',
          code: 200,
          error_subcode: 1870090,
          error_user_title: 'Terms',
          error_user_msg: 'You need to accept the Custom Audience terms.',
        },
      },
    });
    const response = await imagesOf(userId);
    expect(response.body.results).toMatchObject({
      code: 'PLATFORM_REJECTED',
      error: 'You need to accept the Custom Audience terms.',
      platformCode: 200,
      platformSubcode: 1870090,
    });
  });

  it('a throttle followed by success is retried and succeeds', async () => {
    const { userId, token } = await newSocialUser(apiKey);
    await injectFault('social', {
      requestIncludes: token,
      status: 400,
      body: { error: { message: 'User request limit reached', type: 'OAuthException', is_transient: true, code: 17, error_subcode: 2446079 } },
    });
    const response = await imagesOf(userId);
    expect(response.status).toBe(200);
    expect(response.body.results.media).toHaveLength(25);
    expect(await upstreamRequestsWith('social', token)).toHaveLength(2);
  });

  it.each([
    ['4 (application limit)', { message: '(#4) Application request limit reached', is_transient: true, code: 4 }],
    ['17 (user limit)', { message: 'User request limit reached', is_transient: true, code: 17, error_subcode: 2446079 }],
    ['613 (ad account calls)', { message: 'Calls to this api have exceeded the rate limit.', code: 613, error_subcode: 1487742 }],
    ['80004 (ads management)', { message: '(#80004) There have been too many calls to this ad-account.', code: 80004, error_subcode: 2446079 }],
  ])('throttling %s that persists → 429 PLATFORM_RATE_LIMITED with Retry-After, after bounded retries', async (_label, error) => {
    const { userId, token } = await newSocialUser(apiKey);
    await injectFault('social', {
      requestIncludes: token,
      status: 400,
      body: { error },
      times: 5,
      headers: { 'x-ad-account-usage': '{"acc_id_util_pct":100,"reset_time_duration":120}' },
    });
    const response = await imagesOf(userId);
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('120');
    expect(response.body.results).toMatchObject({ success: false, code: 'PLATFORM_RATE_LIMITED', platform: 'social' });
    expect(await upstreamRequestsWith('social', token)).toHaveLength(3);
  });

  it('a usage header that names a wait answers 429 at once instead of sleeping', async () => {
    const { userId, token } = await newSocialUser(apiKey);
    await injectFault('social', {
      requestIncludes: token,
      status: 400,
      body: { error: { message: '(#80004) There have been too many calls to this ad-account.', code: 80004, error_subcode: 2446079 } },
      headers: {
        'x-business-use-case-usage': JSON.stringify({
          [ACCOUNT]: [{ type: 'ads_management', call_count: 100, total_cputime: 20, total_time: 20, estimated_time_to_regain_access: 19 }],
        }),
      },
    });
    const response = await imagesOf(userId);
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe(String(19 * 60));
    // one request and no retry: the 19 minutes are the client's to wait, not the function's
    expect(await upstreamRequestsWith('social', token)).toHaveLength(1);
  });

  it('a platform 5xx that persists → 502 PLATFORM_UNAVAILABLE after bounded retries', async () => {
    const { userId, token } = await newSocialUser(apiKey);
    await injectFault('social', {
      requestIncludes: token,
      status: 500,
      body: { error: { message: 'An unknown error occurred', code: 1, is_transient: true } },
      times: 3,
    });
    const response = await imagesOf(userId);
    expect(response.status).toBe(502);
    expect(response.body.results.code).toBe('PLATFORM_UNAVAILABLE');
    expect(await upstreamRequestsWith('social', token)).toHaveLength(3);
  });

  it('a malformed body → 502 PLATFORM_UNAVAILABLE', async () => {
    const { userId, token } = await newSocialUser(apiKey);
    await injectFault('social', { requestIncludes: token, kind: 'malformed', status: 200 });
    const response = await imagesOf(userId);
    expect(response.status).toBe(502);
    expect(response.body.results.code).toBe('PLATFORM_UNAVAILABLE');
  });

  it('a platform that never answers → 504 PLATFORM_TIMEOUT', async () => {
    const { userId, token } = await newSocialUser(apiKey);
    await injectFault('social', { requestIncludes: token, kind: 'timeout', times: 3 });
    const response = await imagesOf(userId);
    expect(response.status).toBe(504);
    expect(response.body.results.code).toBe('PLATFORM_TIMEOUT');
    // a read is tried again, three times at most, and only while the function's time holds a whole
    // attempt: on a busy machine the third may not fit
    const attempts = await upstreamRequestsWith('social', token);
    expect(attempts.length).toBeGreaterThanOrEqual(2);
    expect(attempts.length).toBeLessThanOrEqual(3);
    expect(new Set(attempts.map((request) => `${request.method} ${request.path}`)).size).toBe(1);
  });

  it('a deprecated version → PLATFORM_REJECTED naming the version', async () => {
    const { userId, token } = await newSocialUser(apiKey);
    await injectFault('social', {
      requestIncludes: token,
      status: 400,
      body: { error: { message: '(#2635) You are calling a deprecated version of the Ads API.', code: 2635 } },
    });
    const response = await imagesOf(userId);
    expect(response.body.results).toMatchObject({ code: 'PLATFORM_REJECTED', error: expect.stringContaining('v26.0') });
  });

  it('a user without a social connection → 409 PLATFORM_NOT_CONNECTED, nothing sent', async () => {
    const created = await call('/users/create_user', { connections: {} }, { apiKey });
    const response = await imagesOf(created.body.results.userId);
    expect(response.status).toBe(409);
    expect(response.body.results.code).toBe('PLATFORM_NOT_CONNECTED');
  });
});
