import { randomBytes, randomInt } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { clock } from '../../shared/core/clock.ts';
import { googleDay, secondsUntilGoogleDay } from '../../shared/core/google-day.ts';
import { findTenantIdByKeyHash, hashApiKey } from '../../shared/store/api-key-lookup.ts';
import { documentStore, mainTableName } from '../../shared/store/client.ts';
import { keys } from '../../shared/store/keys.ts';
import { call, newTenant, newUser } from '../helpers/api.ts';
import { fixture as recorded } from '../helpers/fixtures.ts';
import { winterCampaign } from '../helpers/examples.ts';
import { injectFault, stackNow, upstreamRequests, upstreamRequestsWith } from '../helpers/sandbox.ts';

/** Operations 2 and 9 through the gateway against the search-ads sandbox. */
const fixture = (name: string) => recorded(`searchads/${name}`);
let apiKey = '';
let imageServer: Server;
let imageBase = '';

/** A PNG header of the given size: enough for the service's checks and the sandbox's. */
function png(width: number, height: number, padding = 0): Buffer {
  const header = Buffer.alloc(33);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(header, 0);
  header.writeUInt32BE(13, 8);
  header.write('IHDR', 12, 'ascii');
  header.writeUInt32BE(width, 16);
  header.writeUInt32BE(height, 20);
  header.writeUInt8(8, 24);
  header.writeUInt8(2, 25);
  return Buffer.concat([header, Buffer.alloc(padding)]);
}

const images: Record<string, Buffer> = {
  '/landscape.png': png(1200, 628),
  '/square.png': png(1200, 1200),
  '/tall.png': png(600, 1200),
  '/tiny.png': png(100, 100),
  '/huge.png': png(1200, 1200, 6 * 1024 * 1024),
  '/text.png': Buffer.from('not an image at all'),
};

beforeAll(async () => {
  apiKey = await newTenant();
  imageServer = createServer((request, response) => {
    const body = images[request.url ?? ''];
    if (!body) return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': 'image/png' }).end(body);
  });
  await new Promise<void>((resolve) => imageServer.listen(0, '127.0.0.1', resolve));
  imageBase = `http://127.0.0.1:${(imageServer.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => imageServer.close(() => resolve())));

/** A user with an account of its own in the sandbox (customer ids are per user) and its own refresh token. */
async function searchUser(overrides: Record<string, string> = {}) {
  const refreshToken = `1//test-${randomBytes(8).toString('hex')}`;
  const customerId = String(randomInt(1_000_000_000, 9_999_999_999));
  const userId = await newUser(apiKey, { searchads: { refreshToken, customerId, ...overrides } });
  return { userId, refreshToken: overrides.refreshToken ?? refreshToken, customerId: overrides.customerId?.replaceAll('-', '') ?? customerId };
}

const mutatesOf = async (refreshToken: string, customerId: string) => {
  void refreshToken;
  return (await upstreamRequests('searchads')).filter((request) => request.path === `/v26/customers/${customerId}/googleAds:mutate`);
};

describe('create_search_campaign', () => {
  it('sends exactly the hand-checked mutate body of the contract’s example, in one request', async () => {
    const { userId, customerId, refreshToken } = await searchUser({ customerId: '1234567890' });
    void refreshToken;
    const before = (await mutatesOf('', customerId)).length;
    const response = await call('/searchads/create_search_campaign', winterCampaign(userId), { apiKey });
    expect(response.status).toBe(200);
    expect(response.body.results).toEqual({
      success: true,
      campaignResourceName: expect.stringMatching(/^customers\/1234567890\/campaigns\/\d+$/),
      adGroupResourceName: expect.stringMatching(/^customers\/1234567890\/adGroups\/\d+$/),
      additionalMessage: '',
    });
    const mutates = await mutatesOf('', customerId);
    expect(mutates).toHaveLength(before + 1);
    const sent = JSON.parse(mutates.at(-1)?.body ?? '{}');
    const expected = fixture('mutate-create-search-campaign.request.json');
    // the budget's name carries a random suffix that keeps it unique
    expect(sent.mutateOperations[0].campaignBudgetOperation.create.name).toMatch(/^Winter Tune-Up 2026 budget [0-9a-f]{6}$/);
    sent.mutateOperations[0].campaignBudgetOperation.create.name = expected.mutateOperations[0].campaignBudgetOperation.create.name;
    expect(sent).toEqual(expected);
    expect(mutates.at(-1)?.headers).toMatchObject({
      authorization: expect.stringMatching(/^Bearer ya29\./),
      'content-type': 'application/json',
    });
    // Google retired developer tokens: none is configured, so the header is not sent
    expect(mutates.at(-1)?.headers).not.toHaveProperty('developer-token');
    expect(mutates.at(-1)?.headers).not.toHaveProperty('login-customer-id');
  });

  it('CONVERSION: maximise conversions, custom goal, locations, lead form, image, location group', async () => {
    const { userId, customerId } = await searchUser({ loginCustomerId: '987-654-3210' });
    const input = {
      ...winterCampaign(userId),
      objective: 'CONVERSION',
      campaignName: 'Spring Leads 2027',
      dailyBudget: '75.5',
      proximityTargeting: undefined,
      locations: ['2840'],
      negativeLocations: ['2630'],
      languages: ['es'],
      conversionEvents: ['6543210987', '6543210988'],
      leadFormAssetId: '176543210987',
      locationGroupId: '8765432109',
      images: [`${imageBase}/landscape.png`],
      geo_target_type: 'PRESENCE_OR_INTEREST',
    };
    const response = await call('/searchads/create_search_campaign', input, { apiKey });
    expect(response.status).toBe(200);
    expect(response.body.results.success).toBe(true);
    const [mutate] = (await mutatesOf('', customerId)).slice(-1);
    expect(mutate?.headers['login-customer-id']).toBe('9876543210');
    const operations = JSON.parse(mutate?.body ?? '{}').mutateOperations as Array<Record<string, any>>;
    expect(operations.map((operation) => Object.keys(operation)[0])).toEqual([
      'campaignBudgetOperation',
      'campaignOperation',
      'customConversionGoalOperation',
      'conversionGoalCampaignConfigOperation',
      'campaignCriterionOperation',
      'campaignCriterionOperation',
      'campaignCriterionOperation',
      'campaignCriterionOperation',
      'adGroupOperation',
      'adGroupCriterionOperation',
      'adGroupCriterionOperation',
      'adGroupAdOperation',
      'assetOperation',
      'assetOperation',
      'assetOperation',
      'campaignAssetOperation',
      'campaignAssetOperation',
      'campaignAssetOperation',
      'campaignAssetOperation',
      'campaignAssetSetOperation',
    ]);
    const prefix = `customers/${customerId}`;
    expect(operations[0]?.campaignBudgetOperation.create.amountMicros).toBe('75500000');
    expect(operations[1]?.campaignOperation.create).toMatchObject({
      maximizeConversions: {},
      geoTargetTypeSetting: { positiveGeoTargetType: 'PRESENCE_OR_INTEREST', negativeGeoTargetType: 'PRESENCE' },
    });
    expect(operations[1]?.campaignOperation.create).not.toHaveProperty('targetSpend');
    expect(operations[2]?.customConversionGoalOperation.create.conversionActions).toEqual([
      `${prefix}/conversionActions/6543210987`,
      `${prefix}/conversionActions/6543210988`,
    ]);
    expect(operations[3]?.conversionGoalCampaignConfigOperation).toEqual({
      update: {
        resourceName: `${prefix}/conversionGoalCampaignConfigs/-2`,
        goalConfigLevel: 'CAMPAIGN',
        customConversionGoal: operations[2]?.customConversionGoalOperation.create.resourceName,
      },
      updateMask: 'goalConfigLevel,customConversionGoal',
    });
    expect(operations[4]?.campaignCriterionOperation.create.location).toEqual({ geoTargetConstant: 'geoTargetConstants/2840' });
    expect(operations[5]?.campaignCriterionOperation.create).toMatchObject({ negative: true, location: { geoTargetConstant: 'geoTargetConstants/2630' } });
    expect(operations[6]?.campaignCriterionOperation.create.language).toEqual({ languageConstant: 'languageConstants/1003' });
    expect(operations[14]?.assetOperation.create.imageAsset.data).toBe(images['/landscape.png']?.toString('base64'));
    expect(operations.slice(15, 19).map((operation) => operation.campaignAssetOperation.create.fieldType)).toEqual([
      'CALLOUT',
      'CALL',
      'AD_IMAGE',
      'LEAD_FORM',
    ]);
    expect(operations[18]?.campaignAssetOperation.create.asset).toBe(`${prefix}/assets/176543210987`);
    expect(operations[19]?.campaignAssetSetOperation.create.assetSet).toBe(`${prefix}/assetSets/8765432109`);
  });

  it('validateOnly runs the same request as a dry run and creates nothing', async () => {
    const { userId, customerId } = await searchUser();
    const dry = await call('/searchads/create_search_campaign', { ...winterCampaign(userId), validateOnly: true }, { apiKey });
    expect(dry.status).toBe(200);
    expect(dry.body.results).toMatchObject({ success: true, campaignResourceName: '', additionalMessage: expect.stringContaining('Dry run') });
    expect(JSON.parse((await mutatesOf('', customerId)).at(-1)?.body ?? '{}').validateOnly).toBe(true);
    // nothing exists: the real run with the same name succeeds
    const real = await call('/searchads/create_search_campaign', winterCampaign(userId), { apiKey });
    expect(real.body.results.success).toBe(true);
  });

  it('is atomic: a rejected mutate leaves nothing behind in the sandbox', async () => {
    const { userId, customerId } = await searchUser();
    const rejected = await call('/searchads/create_search_campaign', { ...winterCampaign(userId), leadFormAssetId: '999' }, { apiKey });
    expect(rejected.status).toBe(200);
    expect(rejected.body.results).toMatchObject({
      success: false,
      code: 'PLATFORM_REJECTED',
      platformCode: 'mutateError.RESOURCE_NOT_FOUND',
      fieldPath: expect.stringMatching(/^mutate_operations\[\d+\]\.campaign_asset_operation\.create\.asset$/),
      error: expect.stringMatching(
        /^mutateError\.RESOURCE_NOT_FOUND: .* \(at mutate_operations\[\d+\]\.campaign_asset_operation\.create\.asset\) \[request-id [\w-]+\]$/,
      ),
    });
    // the campaign and budget of the failed request were not kept: the same campaign can be created
    const retried = await call('/searchads/create_search_campaign', winterCampaign(userId), { apiKey });
    expect(retried.body.results.success).toBe(true);
    const stats = await call('/searchads/get_search_ads_result', { userId, campaignId: '1' }, { apiKey });
    expect(stats.body.results.stats).toEqual([]);
    expect(await mutatesOf('', customerId)).toHaveLength(2);
  });

  it('a platform rule the service does not check comes back as PLATFORM_REJECTED with the first error', async () => {
    const { userId } = await searchUser();
    const response = await call('/searchads/create_search_campaign', { ...winterCampaign(userId), dailyBudget: '50.001' }, { apiKey });
    expect(response.body.results).toMatchObject({
      success: false,
      code: 'PLATFORM_REJECTED',
      platformCode: 'campaignBudgetError.NON_MULTIPLE_OF_MINIMUM_CURRENCY_UNIT',
    });
  });

  it('a quota error with a long retry delay → 429 with Retry-After, not retried inside the request', async () => {
    const { userId, customerId } = await searchUser();
    await injectFault('searchads', { pathIncludes: `${customerId}/googleAds:mutate`, status: 429, body: fixture('error-resource-exhausted-quota.json') });
    const response = await call('/searchads/create_search_campaign', winterCampaign(userId), { apiKey });
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('41243');
    expect(response.body.results.code).toBe('PLATFORM_RATE_LIMITED');
    expect(await mutatesOf('', customerId)).toHaveLength(1);
  });

  it('an expired or revoked refresh token → PLATFORM_AUTH_EXPIRED, nothing sent to the API', async () => {
    const { userId, customerId } = await searchUser({ refreshToken: '1//REVOKED-refresh-token' });
    const response = await call('/searchads/create_search_campaign', winterCampaign(userId), { apiKey });
    expect(response.status).toBe(200);
    expect(response.body.results).toMatchObject({ success: false, code: 'PLATFORM_AUTH_EXPIRED', platform: 'searchads' });
    expect(await mutatesOf('', customerId)).toHaveLength(0);
    expect(response.text).not.toContain('REVOKED-refresh-token');
  });

  it('refreshes the access token once when the API refuses it', async () => {
    const { userId, customerId, refreshToken } = await searchUser();
    await call('/searchads/get_search_ads_result', { userId, campaignId: '21234567890' }, { apiKey }); // warms the token cache
    await injectFault('searchads', {
      pathIncludes: `${customerId}/googleAds:mutate`,
      status: 401,
      body: {
        error: {
          code: 401,
          status: 'UNAUTHENTICATED',
          message: 'Request had invalid authentication credentials.',
          details: [
            {
              '@type': 'type.googleapis.com/google.ads.googleads.v26.errors.GoogleAdsFailure',
              errors: [{ errorCode: { authenticationError: 'OAUTH_TOKEN_EXPIRED' }, message: 'expired' }],
            },
          ],
        },
      },
    });
    const response = await call('/searchads/create_search_campaign', winterCampaign(userId), { apiKey });
    expect(response.body.results.success).toBe(true);
    const tokenCalls = (await upstreamRequestsWith('searchads', encodeURIComponent(refreshToken))).filter((request) => request.path === '/token');
    expect(tokenCalls).toHaveLength(2);
  });
});

describe('create_search_campaign images', () => {
  it.each([
    ['/tall.png', /must be landscape 1\.91:1 or square 1:1/],
    ['/tiny.png', /at least 300×300/],
    ['/huge.png', /larger than 5 MB/],
    ['/text.png', /not hold a JPEG or PNG/],
    ['/missing.png', /answered HTTP 404/],
  ])('%s → 400 before any mutate', async (path, message) => {
    const { userId, customerId } = await searchUser();
    const response = await call('/searchads/create_search_campaign', { ...winterCampaign(userId), images: [`${imageBase}${path}`] }, { apiKey });
    expect(response.status).toBe(400);
    expect(response.body.results.details[0].path).toBe('images.0');
    expect(response.body.results.error).toMatch(message);
    expect(await mutatesOf('', customerId)).toHaveLength(0);
  });

  it('a square image is sent as an image asset linked as AD_IMAGE', async () => {
    const { userId, customerId } = await searchUser();
    const response = await call('/searchads/create_search_campaign', { ...winterCampaign(userId), images: [`${imageBase}/square.png`] }, { apiKey });
    expect(response.body.results.success).toBe(true);
    const operations = JSON.parse((await mutatesOf('', customerId)).at(-1)?.body ?? '{}').mutateOperations as Array<Record<string, any>>;
    const image = operations.find((operation) => operation.assetOperation?.create.imageAsset)?.assetOperation.create;
    expect(image.name).toMatch(/^Winter Tune-Up 2026 image 1 [0-9a-f]{6}$/);
    expect(
      operations.some(
        (operation) =>
          operation.campaignAssetOperation?.create.fieldType === 'AD_IMAGE' && operation.campaignAssetOperation.create.asset === image.resourceName,
      ),
    ).toBe(true);
  });
});

describe('create_search_campaign validation: every rule → 400 with details, nothing sent', () => {
  type Mutation = (input: any) => void;
  const cases: Array<[string, Mutation, string]> = [
    ['objective missing', (input) => delete input.objective, 'objective'],
    ['unknown objective', (input) => (input.objective = 'AWARENESS'), 'objective'],
    ['campaign name missing', (input) => delete input.campaignName, 'campaignName'],
    ['campaign name with a line break', (input) => (input.campaignName = 'Two\nlines'), 'campaignName'],
    ['budget not a number', (input) => (input.dailyBudget = 'fifty'), 'dailyBudget'],
    ['budget zero', (input) => (input.dailyBudget = '0'), 'dailyBudget'],
    ['budget negative', (input) => (input.dailyBudget = '-5'), 'dailyBudget'],
    ['budget as a number', (input) => (input.dailyBudget = 50), 'dailyBudget'],
    ['start date format', (input) => (input.startDate = clock.today(1).split('-').reverse().join('/')), 'startDate'],
    ['start date not a real date', (input) => (input.startDate = `${clock.today(400).slice(0, 4)}-02-30`), 'startDate'],
    ['start date in the past', (input) => (input.startDate = clock.today(-2)), 'startDate'],
    ['end before start', (input) => (input.endDate = clock.today(0)), 'endDate'],
    ['no keywords', (input) => (input.keywords = []), 'keywords'],
    ['keyword match type', (input) => (input.keywords[0].match_type = 'FUZZY'), 'keywords.0.match_type'],
    ['keyword too long', (input) => (input.keywords[0].text = 'k'.repeat(81)), 'keywords.0.text'],
    ['keyword with 11 words', (input) => (input.keywords[0].text = 'a b c d e f g h i j k'), 'keywords.0.text'],
    ['negative keyword match type', (input) => (input.negativeKeywords[0].match_type = 'NONE'), 'negativeKeywords.0.match_type'],
    ['neither locations nor proximity', (input) => delete input.proximityTargeting, 'locations'],
    [
      'empty locations and no proximity',
      (input) => {
        delete input.proximityTargeting;
        input.locations = [];
      },
      'locations',
    ],
    ['location not an id', (input) => (input.locations = ['Denver']), 'locations.0'],
    ['proximity units', (input) => (input.proximityTargeting[0].radius_units = 'METERS'), 'proximityTargeting.0.radius_units'],
    ['proximity radius zero', (input) => (input.proximityTargeting[0].radius = 0), 'proximityTargeting.0.radius'],
    ['proximity radius too large', (input) => (input.proximityTargeting[0].radius = 900), 'proximityTargeting.0.radius'],
    [
      'latitude out of range',
      (input) => (input.proximityTargeting[0].latitude_in_micro_degrees = 91_000_000),
      'proximityTargeting.0.latitude_in_micro_degrees',
    ],
    [
      'longitude not an integer',
      (input) => (input.proximityTargeting[0].longitude_in_micro_degrees = -104.99),
      'proximityTargeting.0.longitude_in_micro_degrees',
    ],
    ['negative location not an id', (input) => (input.negativeLocations = ['UK']), 'negativeLocations.0'],
    ['geo target type', (input) => (input.geo_target_type = 'INTEREST'), 'geo_target_type'],
    ['unknown language', (input) => (input.languages = ['xx']), 'languages.0'],
    ['no ads', (input) => (input.ads = []), 'ads'],
    ['four ads', (input) => (input.ads = [input.ads[0], input.ads[0], input.ads[0], input.ads[0]]), 'ads'],
    ['ad URL', (input) => (input.ads[0].url = 'www.example.com'), 'ads.0.url'],
    ['two headlines', (input) => (input.ads[0].headlines = ['One', 'Two']), 'ads.0.headlines'],
    ['sixteen headlines', (input) => (input.ads[0].headlines = Array.from({ length: 16 }, (_, index) => `Headline ${index}`)), 'ads.0.headlines'],
    ['headline of 31 characters', (input) => (input.ads[0].headlines[1] = 'h'.repeat(31)), 'ads.0.headlines.1'],
    ['one description', (input) => (input.ads[0].descriptions = ['Only one']), 'ads.0.descriptions'],
    ['five descriptions', (input) => (input.ads[0].descriptions = ['a', 'b', 'c', 'd', 'e']), 'ads.0.descriptions'],
    ['description of 91 characters', (input) => (input.ads[0].descriptions[0] = 'd'.repeat(91)), 'ads.0.descriptions.0'],
    ['headline pin out of range', (input) => (input.ads[0].headlineIndexToPinFirstSlot = 3), 'ads.0.headlineIndexToPinFirstSlot'],
    ['headline pin negative', (input) => (input.ads[0].headlineIndexToPinFirstSlot = -1), 'ads.0.headlineIndexToPinFirstSlot'],
    ['description pin out of range', (input) => (input.ads[0].descriptionIndexToPinFirstSlot = 2), 'ads.0.descriptionIndexToPinFirstSlot'],
    ['CONVERSION without conversion events', (input) => (input.objective = 'CONVERSION'), 'conversionEvents'],
    [
      'conversion event not an id',
      (input) => {
        input.objective = 'CONVERSION';
        input.conversionEvents = ['purchase'];
      },
      'conversionEvents.0',
    ],
    ['callouts missing', (input) => delete input.callouts, 'callouts'],
    ['callout of 26 characters', (input) => (input.callouts = ['c'.repeat(26)]), 'callouts.0'],
    ['phone without country code', (input) => delete input.phoneNumberCountryCode, 'phoneNumberCountryCode'],
    ['country code lower case', (input) => (input.phoneNumberCountryCode = 'us'), 'phoneNumberCountryCode'],
    ['phone invalid for its country', (input) => (input.phoneNumber = '12345'), 'phoneNumber'],
    ['lead form asset not an id', (input) => (input.leadFormAssetId = 'form-1'), 'leadFormAssetId'],
    ['image not a URL', (input) => (input.images = ['logo.png']), 'images.0'],
    ['nine images', (input) => (input.images = Array.from({ length: 9 }, (_, index) => `https://cdn.example.com/${index}.png`)), 'images'],
    ['UTM parameters not a query string', (input) => (input.utmParams = 'utm source google'), 'utmParams'],
    ['location group not an id', (input) => (input.locationGroupId = 'stores'), 'locationGroupId'],
    ['validateOnly not a boolean', (input) => (input.validateOnly = 'yes'), 'validateOnly'],
  ];

  it.each(cases)('%s', async (_label, mutate, path) => {
    const { userId, customerId, refreshToken } = await searchUser();
    const input = structuredClone(winterCampaign(userId));
    mutate(input);
    const response = await call('/searchads/create_search_campaign', input, { apiKey });
    expect(response.status).toBe(400);
    expect(response.body.results.code).toBe('INVALID_REQUEST');
    expect(response.body.results.details.map((detail: { path: string }) => detail.path)).toContain(path);
    expect(await mutatesOf('', customerId)).toHaveLength(0);
    expect(await upstreamRequestsWith('searchads', encodeURIComponent(refreshToken))).toHaveLength(0);
  });

  it('accepts UTM parameters with a leading ? and sends them without it', async () => {
    const { userId, customerId } = await searchUser();
    const response = await call('/searchads/create_search_campaign', { ...winterCampaign(userId), utmParams: '?utm_source=google&utm_medium=cpc' }, { apiKey });
    expect(response.body.results.success).toBe(true);
    const operations = JSON.parse((await mutatesOf('', customerId)).at(-1)?.body ?? '{}').mutateOperations;
    expect(operations[1].campaignOperation.create.finalUrlSuffix).toBe('utm_source=google&utm_medium=cpc');
  });
});

describe('get_search_ads_result', () => {
  it('maps every statistics field as the contract computes it (its 3-day example)', async () => {
    const { userId, customerId } = await searchUser();
    await injectFault('searchads', {
      pathIncludes: `${customerId}/googleAds:searchStream`,
      requestIncludes: 'ORDER BY',
      status: 200,
      body: fixture('search-stream-campaign-daily.response.json'),
    });
    const response = await call(
      '/searchads/get_search_ads_result',
      { userId, campaignId: '21234567890', startDate: clock.today(-10), endDate: clock.today(-8) },
      { apiKey },
    );
    expect(response.status).toBe(200);
    const [first] = response.body.results.stats;
    expect(first).toEqual({
      campaignid: '21234567890',
      campaignName: 'Winter Tune-Up 2026',
      servingStatus: 'SERVING',
      advertising_channel_type: 'SEARCH',
      status: 'ENABLED',
      avgPosition: '0',
      clicks: '47',
      conversions: '3',
      cost: '61.43',
      ctr: '0.038907',
      impressions: '1208',
      interactions: '47',
      topImpressionPercentage: '0.6125',
      videoViews: '0',
      videoViewRate: '0',
      averageCpv: '0',
      cpm: '50.852649',
      conversionRateRanking: 'UNKNOWN',
      costPerConversion: '20.476667',
      dateStart: clock.today(-10),
      cpc: '1.307021',
      timeUnit: 'DAY',
      spend: '61.43',
      phone_calls: '2',
      phone_impressions: '318',
      phone_through_rate: '0.006289',
      searchImpressionShare: '0.4321',
      searchBudgetLostImpressionShare: '0.1837',
      searchRankLostImpressionShare: '0.3842',
      primary_status: 'LIMITED',
      primary_status_reasons: ['BUDGET_CONSTRAINED'],
      all_conversions: '4',
      all_conversions_value: '412.5',
      display_spend: '0',
      display_cpc: '0',
      display_costPerConversion: '0',
    });
    expect(response.body.results.stats.map((item: { dateStart: string }) => item.dateStart)).toEqual([clock.today(-10), clock.today(-9), clock.today(-8)]);
  });

  it('sends the daily and the content-network query, and joins display figures by day', async () => {
    const { userId, customerId } = await searchUser();
    const response = await call(
      '/searchads/get_search_ads_result',
      { userId, campaignId: '21234567891', startDate: clock.today(-10), endDate: clock.today(-1) },
      { apiKey },
    );
    expect(response.status).toBe(200);
    const queries = (await upstreamRequests('searchads'))
      .filter((request) => request.path === `/v26/customers/${customerId}/googleAds:searchStream`)
      .map((request) => JSON.parse(request.body).query as string);
    expect(queries).toHaveLength(2);
    const [from, to] = [clock.today(-10), clock.today(-1)];
    expect(queries).toContain(
      `SELECT campaign.id, campaign.name, campaign.status, campaign.serving_status, campaign.advertising_channel_type, campaign.primary_status, campaign.primary_status_reasons, segments.date, metrics.impressions, metrics.clicks, metrics.ctr, metrics.cost_micros, metrics.average_cpc, metrics.average_cpm, metrics.interactions, metrics.conversions, metrics.cost_per_conversion, metrics.all_conversions, metrics.all_conversions_value, metrics.top_impression_percentage, metrics.search_impression_share, metrics.search_budget_lost_impression_share, metrics.search_rank_lost_impression_share, metrics.phone_calls, metrics.phone_impressions, metrics.phone_through_rate, metrics.video_trueview_views, metrics.video_trueview_view_rate, metrics.trueview_average_cpv FROM campaign WHERE campaign.id = 21234567891 AND segments.date BETWEEN '${from}' AND '${to}' ORDER BY segments.date`,
    );
    expect(queries).toContain(
      `SELECT campaign.id, segments.date, metrics.cost_micros, metrics.average_cpc, metrics.cost_per_conversion FROM campaign WHERE campaign.id = 21234567891 AND segments.date BETWEEN '${from}' AND '${to}' AND segments.ad_network_type = 'CONTENT'`,
    );
    const stats = response.body.results.stats;
    expect(stats.length).toBeGreaterThan(5);
    expect(stats.some((item: { display_spend: string }) => item.display_spend !== '0')).toBe(true);
    for (const item of stats) for (const [key, value] of Object.entries(item)) if (key !== 'primary_status_reasons') expect(typeof value, key).toBe('string');
  });

  it('defaults to the 30 days ending today', async () => {
    const { userId, customerId } = await searchUser();
    await call('/searchads/get_search_ads_result', { userId, campaignId: '21234567890' }, { apiKey });
    const query = JSON.parse((await upstreamRequests('searchads')).filter((request) => request.path.includes(customerId)).at(-1)?.body ?? '{}').query as string;
    expect(query).toContain(`BETWEEN '${clock.today(-29)}' AND '${clock.today()}'`);
  });

  it('shares one token refresh between many concurrent calls', async () => {
    const { userId, refreshToken } = await searchUser();
    const responses = await Promise.all(
      Array.from({ length: 12 }, () => call('/searchads/get_search_ads_result', { userId, campaignId: '21234567890' }, { apiKey })),
    );
    for (const response of responses) expect(response.status).toBe(200);
    const tokenCalls = (await upstreamRequestsWith('searchads', encodeURIComponent(refreshToken))).filter((request) => request.path === '/token');
    expect(tokenCalls).toHaveLength(1);
    expect(new URLSearchParams(tokenCalls[0]?.body)).toEqual(
      new URLSearchParams({
        grant_type: 'refresh_token',
        client_id: 'sandbox-client-id.apps.example',
        client_secret: 'sandbox-client-secret',
        refresh_token: refreshToken,
      }),
    );
  });

  it.each([
    [{ startDate: `${clock.today().slice(0, 4)}-13-01` }, 'startDate'],
    [{ endDate: `${clock.today().slice(0, 4)}-11-31` }, 'endDate'],
    [{ startDate: clock.today(-1), endDate: clock.today(-10) }, 'endDate'],
    [{ campaignId: 'winter' }, 'campaignId'],
  ])('refuses %j', async (fields, path) => {
    const { userId, refreshToken } = await searchUser();
    const response = await call('/searchads/get_search_ads_result', { userId, campaignId: '21234567890', ...fields }, { apiKey });
    expect(response.status).toBe(400);
    expect(response.body.results.details.map((detail: { path: string }) => detail.path)).toContain(path);
    expect(await upstreamRequestsWith('searchads', encodeURIComponent(refreshToken))).toHaveLength(0);
  });

  it('a campaign created through the service has statistics', async () => {
    const { userId } = await searchUser();
    const created = await call('/searchads/create_search_campaign', winterCampaign(userId), { apiKey });
    const campaignId = String(created.body.results.campaignResourceName).split('/').pop();
    const stats = await call('/searchads/get_search_ads_result', { userId, campaignId }, { apiKey });
    expect(stats.status).toBe(200);
    expect(stats.body.results.stats.length).toBeGreaterThan(0);
    expect(stats.body.results.stats[0]).toMatchObject({ campaignid: campaignId, campaignName: 'Winter Tune-Up 2026', advertising_channel_type: 'SEARCH' });
  });

  it('a user without a search-ads connection → 409', async () => {
    const userId = await newUser(apiKey, {});
    const response = await call('/searchads/get_search_ads_result', { userId, campaignId: '1' }, { apiKey });
    expect(response.status).toBe(409);
  });
});

describe('the search-ads platform moved: the Cloud project’s access level and its daily operations', () => {
  const tenantOf = async (key: string) => (await findTenantIdByKeyHash(hashApiKey(key))) as string;

  it('a Cloud project not approved for production answers PLATFORM_ACCESS_NOT_APPROVED in band, for the operator, and nothing was changed', async () => {
    const { userId, customerId } = await searchUser();
    await injectFault('searchads', {
      pathIncludes: `${customerId}/googleAds:mutate`,
      status: 403,
      body: {
        error: {
          code: 403,
          message: 'The caller does not have permission',
          status: 'PERMISSION_DENIED',
          details: [
            {
              '@type': 'type.googleapis.com/google.ads.googleads.v26.errors.GoogleAdsFailure',
              errors: [
                { errorCode: { authorizationError: 'CLOUD_PROJECT_NOT_APPROVED_FOR_PRODUCTION' }, message: 'The Google Cloud project is not approved.' },
              ],
              requestId: 'req-not-approved',
            },
          ],
        },
      },
    });
    const response = await call('/searchads/create_search_campaign', winterCampaign(userId), { apiKey });
    expect(response.status).toBe(200);
    expect(response.body.results).toMatchObject({ success: false, code: 'PLATFORM_ACCESS_NOT_APPROVED', platform: 'searchads' });
    expect(response.body.results.error).toMatch(/operator/);
  });

  it('a tenant past its share of the project’s day is 429 QUOTA_EXCEEDED until Google’s next day, nothing sent; other tenants go on', async () => {
    const spent = await newTenant();
    const refreshToken = `1//spent-${randomBytes(8).toString('hex')}`;
    const customerId = String(randomInt(1_000_000_000, 9_999_999_999));
    const userId = await newUser(spent, { searchads: { refreshToken, customerId } });
    // the tenant has spent its whole share of today (Google's day, Pacific) already
    const share = Math.floor(15_000 * 0.5);
    const now = await stackNow(); // the stack's clock, which runs ahead of this process's by the waits it skipped
    await documentStore().send(
      new PutCommand({ TableName: mainTableName(), Item: { ...keys.searchadsOperations(await tenantOf(spent), googleDay(now)), operations: share } }),
    );
    const before = (await upstreamRequests('searchads')).filter((request) => request.path.includes(customerId)).length;
    const response = await call('/searchads/get_search_ads_result', { userId, campaignId: '21234567890' }, { apiKey: spent });
    expect(response.status).toBe(429);
    expect(response.body.results).toMatchObject({ success: false, code: 'QUOTA_EXCEEDED', share });
    // until Google's next day (midnight Pacific), as the stack's clock counts it
    expect(Math.abs(response.body.results.retryAfter - secondsUntilGoogleDay(now))).toBeLessThanOrEqual(5);
    expect(Number(response.headers.get('retry-after'))).toBe(response.body.results.retryAfter);
    expect((await upstreamRequests('searchads')).filter((request) => request.path.includes(customerId))).toHaveLength(before);
    // another tenant's calls are its own
    const other = await searchUser();
    const fine = await call('/searchads/get_search_ads_result', { userId: other.userId, campaignId: '21234567890' }, { apiKey });
    expect(fine.status).toBe(200);
    const counted = await documentStore().send(
      new GetCommand({ TableName: mainTableName(), Key: keys.searchadsOperations(await tenantOf(apiKey), googleDay(clock.now())) }),
    );
    expect(counted.Item?.operations).toBeGreaterThanOrEqual(2); // the daily query and the content-network query
  });
});
