import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { clock } from '../../../shared/core/clock.ts';
import { DEMO_CONNECTIONS, SANDBOX_APP_CREDENTIALS } from './demo-data.ts';
import { checkAgainstProtos, type ProtoProblem } from './searchads-proto.ts';
import type { Signer } from './consent.ts';
import {
  consentAnswer,
  consentScreen,
  exchangeCode,
  listAccessibleCustomers,
  newSearchadsConnectState,
  personOfRefreshToken,
  revoke,
  CUSTOMERS,
  searchAccounts,
  type SearchadsConnectState,
} from './searchads-connect.ts';
import { mutateBudgets, mutateCampaigns, searchCampaigns } from './searchads-campaigns.ts';
import { startSandbox, type Sandbox, type SandboxRequest, type SandboxResponse, type SandboxRoute } from './server.ts';

/**
 * The search-ads sandbox (docs/platforms.md, "Search ads"): the OAuth token endpoint, an atomic
 * `googleAds:mutate` that checks bodies against the platform's protos and its server-side rules,
 * and a `googleAds:searchStream` that answers the service's daily query with 90 days of metrics for
 * seeded campaigns and for campaigns created through it. Refresh tokens `1//…` are valid (REVOKED in
 * one → invalid_grant); access tokens are the ones it issued.
 */
type Row = Record<string, unknown>;
const DAYS_OF_METRICS = 90;

interface Account {
  nextId: number;
  /** resource name → resource (committed) */
  resources: Map<string, { kind: string; data: Row }>;
}

export interface SearchadsState {
  tokens: Map<string, number>;
  /** Google sign-in: codes, issued grants and their people, revoked grants */
  connect: SearchadsConnectState;
  accounts: Map<string, Account>;
  /** mutate requests that committed, for tests of atomicity */
  commits: number;
}

const requestId = () => randomBytes(16).toString('base64url').slice(0, 22);
const day = (offset: number) => clock.today(offset);

function newAccount(cid: string): Account {
  const account: Account = { nextId: 100, resources: new Map() };
  const put = (kind: string, id: string, data: Row) => account.resources.set(`customers/${cid}/${kind}/${id}`, { kind, data });
  put('conversionActions', '6543210987', { status: 'ENABLED' });
  put('conversionActions', '6543210988', { status: 'ENABLED' });
  put('assets', '176543210987', { leadFormAsset: {} });
  put('assetSets', '8765432109', { type: 'BUSINESS_PROFILE_DYNAMIC_LOCATION_GROUP' });
  put('campaignBudgets', '14567890100', {
    name: 'Always-on brand budget',
    amountMicros: '50000000',
    period: 'DAILY',
    explicitlyShared: false,
    status: 'ENABLED',
  });
  put('campaignBudgets', '14567890101', { name: 'Spring leads budget', amountMicros: '30000000', period: 'DAILY', explicitlyShared: false, status: 'ENABLED' });
  put('campaignBudgets', '14567890102', {
    name: 'Shared regional budget',
    amountMicros: '80000000',
    period: 'DAILY',
    explicitlyShared: true,
    status: 'ENABLED',
  });
  put('campaignBudgets', '14567890103', {
    name: 'Launch total budget',
    totalAmountMicros: '900000000',
    period: 'CUSTOM_PERIOD',
    explicitlyShared: false,
    status: 'ENABLED',
  });
  const budget = (id: string) => `customers/${cid}/campaignBudgets/${id}`;
  put('campaigns', '21234567890', {
    campaignBudget: budget('14567890100'),
    startDateTime: '2026-01-05 00:00:00',
    name: 'Always-on brand search',
    status: 'ENABLED',
    servingStatus: 'SERVING',
    primaryStatus: 'LIMITED',
    primaryStatusReasons: ['BUDGET_CONSTRAINED'],
    display: false,
  });
  put('campaigns', '21234567892', {
    campaignBudget: budget('14567890102'),
    name: 'Regional North',
    status: 'ENABLED',
    servingStatus: 'SERVING',
    display: false,
  });
  put('campaigns', '21234567893', {
    campaignBudget: budget('14567890102'),
    name: 'Regional South',
    status: 'ENABLED',
    servingStatus: 'SERVING',
    display: false,
  });
  put('campaigns', '21234567894', { campaignBudget: budget('14567890103'), name: 'Launch week', status: 'ENABLED', servingStatus: 'SERVING', display: false });
  put('campaigns', '21234567891', {
    campaignBudget: budget('14567890101'),
    name: 'Spring Leads 2026',
    status: 'PAUSED',
    servingStatus: 'SERVING',
    primaryStatus: 'PAUSED',
    primaryStatusReasons: ['CAMPAIGN_PAUSED'],
    display: true,
  });
  return account;
}

export function failure(
  status: number,
  code: string,
  errors: Array<{ errorCode: Record<string, string>; message: string; location?: ProtoProblem['path'] }>,
): SandboxResponse {
  const id = requestId();
  return {
    status,
    headers: { 'request-id': id },
    body: {
      error: {
        code: status,
        message: status === 400 ? 'Request contains an invalid argument.' : code,
        status: code,
        details: [
          {
            '@type': 'type.googleapis.com/google.ads.googleads.v26.errors.GoogleAdsFailure',
            errors: errors.map(({ location, ...error }) => ({ ...error, ...(location ? { location: { fieldPathElements: location } } : {}) })),
            requestId: id,
          },
        ],
      },
    },
  };
}

const invalid = (category: string, value: string, message: string, location?: ProtoProblem['path']) =>
  failure(400, 'INVALID_ARGUMENT', [{ errorCode: { [category]: value }, message, ...(location ? { location } : {}) }]);

const bearerOf = (request: SandboxRequest) => request.headers.authorization?.match(/^Bearer\s+(.+)$/)?.[1] ?? '';

function authenticate(request: SandboxRequest, state: SearchadsState): SandboxResponse | undefined {
  const token = request.headers.authorization?.match(/^Bearer\s+(.+)$/)?.[1];
  const expiresAt = token ? state.tokens.get(token) : undefined;
  if (!expiresAt || expiresAt < clock.now()) {
    return failure(401, 'UNAUTHENTICATED', [
      { errorCode: { authenticationError: expiresAt ? 'OAUTH_TOKEN_EXPIRED' : 'OAUTH_TOKEN_INVALID' }, message: 'Authentication of the request failed.' },
    ]);
  }
  const login = request.headers['login-customer-id'];
  if (login !== undefined && !/^\d{10}$/.test(login)) {
    return failure(400, 'INVALID_ARGUMENT', [
      { errorCode: { headerError: 'INVALID_LOGIN_CUSTOMER_ID' }, message: 'The login customer ID could not be validated.' },
    ]);
  }
  return undefined;
}

function issueAccessToken(state: SearchadsState, person: Signer): string {
  const access = `ya29.sandbox-${randomBytes(24).toString('base64url')}`;
  state.tokens.set(access, clock.now() + 3599 * 1000);
  state.connect.accessPeople.set(access, person);
  return access;
}

const token: (request: SandboxRequest, state: SearchadsState) => SandboxResponse = (request, state) => {
  const form = request.fields as Record<string, string>;
  if (form.client_id !== SANDBOX_APP_CREDENTIALS.SEARCHADS_CLIENT_ID || form.client_secret !== SANDBOX_APP_CREDENTIALS.SEARCHADS_CLIENT_SECRET) {
    return { status: 401, body: { error: 'invalid_client', error_description: 'The OAuth client was not found.' } };
  }
  if (form.grant_type === 'authorization_code')
    return exchangeCode(form, state.connect, form.client_id, (person) => issueAccessToken(state, person), clock.now());
  if (form.grant_type !== 'refresh_token') return { status: 400, body: { error: 'unsupported_grant_type', error_description: 'Invalid grant_type.' } };
  if (!form.refresh_token?.startsWith('1//') || form.refresh_token.includes('REVOKED') || state.connect.revokedRefreshTokens.has(form.refresh_token)) {
    return { status: 400, body: { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' } };
  }
  const access = issueAccessToken(state, personOfRefreshToken(state.connect, form.refresh_token));
  return { status: 200, body: { access_token: access, expires_in: 3599, scope: 'https://www.googleapis.com/auth/adwords', token_type: 'Bearer' } };
};

// ---- mutate ---------------------------------------------------------------------------------

const KIND_OF: Record<string, string> = {
  campaignBudgetOperation: 'campaignBudgets',
  campaignOperation: 'campaigns',
  customConversionGoalOperation: 'customConversionGoals',
  conversionGoalCampaignConfigOperation: 'conversionGoalCampaignConfigs',
  campaignCriterionOperation: 'campaignCriteria',
  adGroupOperation: 'adGroups',
  adGroupCriterionOperation: 'adGroupCriteria',
  adGroupAdOperation: 'adGroupAds',
  assetOperation: 'assets',
  campaignAssetOperation: 'campaignAssets',
  campaignAssetSetOperation: 'campaignAssetSets',
};
const RESULT_OF: Record<string, string> = {
  campaignBudgetOperation: 'campaignBudgetResult',
  campaignOperation: 'campaignResult',
  customConversionGoalOperation: 'customConversionGoalResult',
  conversionGoalCampaignConfigOperation: 'conversionGoalCampaignConfigResult',
  campaignCriterionOperation: 'campaignCriterionResult',
  adGroupOperation: 'adGroupResult',
  adGroupCriterionOperation: 'adGroupCriterionResult',
  adGroupAdOperation: 'adGroupAdResult',
  assetOperation: 'assetResult',
  campaignAssetOperation: 'campaignAssetResult',
  campaignAssetSetOperation: 'campaignAssetSetResult',
};
const SEARCH_ASSET_FIELDS = new Set(['CALLOUT', 'CALL', 'LEAD_FORM', 'AD_IMAGE', 'SITELINK', 'STRUCTURED_SNIPPET']);

function mutate(request: SandboxRequest, state: SearchadsState, cid: string): SandboxResponse {
  const body = request.fields as Row;
  const checked = checkAgainstProtos('services.MutateGoogleAdsRequest', { customerId: cid, ...body });
  const firstProblem = checked.problems[0];
  if (firstProblem) {
    const temp = firstProblem.message.includes('temporary resource name');
    return invalid(temp ? 'mutateError' : 'requestError', temp ? 'RESOURCE_NOT_FOUND' : 'INVALID_INPUT', firstProblem.message, firstProblem.path);
  }
  if (body.partialFailure === true) return invalid('requestError', 'UNSUPPORTED', 'This sandbox runs mutates atomically only.');
  const operations = (body.mutateOperations as Row[] | undefined) ?? [];
  if (operations.length === 0) return invalid('mutateError', 'NO_OPERATIONS', 'The request has no operations.');
  if (operations.length > 10_000) return invalid('requestError', 'TOO_MANY_MUTATE_OPERATIONS', 'Too many mutate operations in one request.');

  const account = state.accounts.get(cid) ?? newAccount(cid);
  state.accounts.set(cid, account);
  // everything is staged, and committed only when every operation passed
  const staged = new Map<string, { kind: string; data: Row }>();
  const real = new Map<string, string>();
  let nextId = account.nextId;
  const resolve = (name: string) => {
    const [base, ...rest] = name.split('~');
    const mapped = real.get(base as string) ?? base;
    return [mapped, ...rest].join('~');
  };
  const exists = (name: string) => staged.has(resolve(name)) || account.resources.has(resolve(name));
  const names = (kind: string) =>
    new Set([...account.resources.values(), ...staged.values()].filter((resource) => resource.kind === kind).map((resource) => resource.data.name));
  const results: Row[] = [];
  const today = day(0);

  for (const [index, operation] of operations.entries()) {
    const [key, inner] = Object.entries(operation)[0] as [string, Row];
    const at = (...fields: Array<string | { fieldName: string; index?: number }>) => [
      { fieldName: 'mutate_operations', index },
      { fieldName: key.replace(/[A-Z]/g, (char) => `_${char.toLowerCase()}`) },
      ...fields.map((field) => (typeof field === 'string' ? { fieldName: field } : field)),
    ];
    const payload = (inner.create ?? inner.update) as Row;
    const kind = KIND_OF[key] as string;
    const refusal = (category: string, value: string, message: string, ...fields: Array<string | { fieldName: string; index?: number }>) =>
      invalid(category, value, message, at(inner.create ? 'create' : 'update', ...fields));
    for (const [field, value] of Object.entries(payload)) {
      if (field !== 'resourceName' && typeof value === 'string' && /^customers\/\d+\/\w+\/\d+/.test(value) && !exists(value)) {
        return refusal('mutateError', 'RESOURCE_NOT_FOUND', `Resource was not found: ${value}.`, field);
      }
    }
    if (inner.update) {
      if (!exists(String(payload.resourceName).replace(/conversionGoalCampaignConfigs\/(-?\d+)/, 'campaigns/$1'))) {
        return refusal('mutateError', 'RESOURCE_NOT_FOUND', 'Resource was not found.', 'resource_name');
      }
      results.push({
        [RESULT_OF[key] as string]: {
          resourceName: resolve(
            String(payload.resourceName).replace(/(-\d+)/, (temp) => (real.get(`customers/${cid}/campaigns/${temp}`) ?? temp).split('/').pop() as string),
          ),
        },
      });
      continue;
    }
    switch (key) {
      case 'campaignBudgetOperation': {
        if (names('campaignBudgets').has(payload.name))
          return refusal('campaignBudgetError', 'DUPLICATE_NAME', 'A budget with this name already exists.', 'name');
        const micros = BigInt(String(payload.amountMicros ?? '0'));
        if (micros <= 0n) return refusal('campaignBudgetError', 'MONEY_AMOUNT_TOO_SMALL', 'The budget amount is too small.', 'amount_micros');
        if (micros % 10_000n !== 0n)
          return refusal(
            'campaignBudgetError',
            'NON_MULTIPLE_OF_MINIMUM_CURRENCY_UNIT',
            'The budget is not a multiple of the minimum currency unit.',
            'amount_micros',
          );
        break;
      }
      case 'campaignOperation': {
        const name = String(payload.name ?? '');
        if (!name || /[\n\r\0]/.test(name)) return refusal('fieldError', 'REQUIRED', 'The campaign name is required and may not contain line breaks.', 'name');
        if (names('campaigns').has(name)) return refusal('campaignError', 'DUPLICATE_CAMPAIGN_NAME', 'A campaign with this name already exists.', 'name');
        if (!payload.containsEuPoliticalAdvertising)
          return refusal('fieldError', 'REQUIRED', 'The required field was not present.', 'contains_eu_political_advertising');
        if (!payload.campaignBudget) return refusal('fieldError', 'REQUIRED', 'The required field was not present.', 'campaign_budget');
        if (!['targetSpend', 'maximizeConversions', 'manualCpc', 'maximizeConversionValue', 'targetCpa'].some((strategy) => strategy in payload)) {
          return refusal('biddingError', 'BIDDING_STRATEGY_NOT_SUPPORTED', 'A bidding strategy is required.', 'campaign_bidding_strategy');
        }
        const start = payload.startDateTime as string | undefined;
        const end = payload.endDateTime as string | undefined;
        const pattern = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
        if ((start && !pattern.test(start)) || (end && !pattern.test(end)))
          return refusal(
            'dateError',
            'INVALID_FIELD_FORMAT',
            'Dates take the form yyyy-MM-dd HH:mm:ss.',
            start && !pattern.test(start) ? 'start_date_time' : 'end_date_time',
          );
        if (start && start.slice(0, 10) < today)
          return refusal('campaignError', 'CANNOT_SET_DATE_TO_PAST', 'The start date is in the past.', 'start_date_time');
        if (start && end && end < start) return refusal('dateError', 'LATER_THAN_MAXIMUM_DATE', 'The end date is before the start date.', 'end_date_time');
        if (payload.advertisingChannelType !== 'SEARCH')
          return refusal('campaignError', 'INCOMPATIBLE_CAMPAIGN_FIELD', 'This sandbox creates Search campaigns only.', 'advertising_channel_type');
        break;
      }
      case 'customConversionGoalOperation':
        if (names('customConversionGoals').has(payload.name))
          return refusal('customConversionGoalError', 'CUSTOM_GOAL_DUPLICATE_NAME', 'A custom goal with this name exists.', 'name');
        for (const [actionIndex, action] of ((payload.conversionActions as string[]) ?? []).entries()) {
          if (!exists(action))
            return refusal('mutateError', 'RESOURCE_NOT_FOUND', `Resource was not found: ${action}.`, { fieldName: 'conversion_actions', index: actionIndex });
        }
        break;
      case 'campaignCriterionOperation': {
        const proximity = payload.proximity as Row | undefined;
        if (proximity) {
          const radius = Number(proximity.radius);
          const max = proximity.radiusUnits === 'MILES' ? 500 : 800;
          if (!(radius > 0) || radius > max)
            return refusal('criterionError', 'INVALID_PROXIMITY_RADIUS', 'The proximity radius is out of range.', 'proximity', 'radius');
        }
        const keyword = payload.keyword as Row | undefined;
        if (keyword && String(keyword.text).length > 80) return refusal('stringLengthError', 'TOO_LONG', 'Too long.', 'keyword', 'text');
        const location = payload.location as Row | undefined;
        if (location && !/^geoTargetConstants\/\d+$/.test(String(location.geoTargetConstant)))
          return refusal('criterionError', 'INVALID_CRITERION_TYPE', 'Not a geo target constant.', 'location', 'geo_target_constant');
        const language = payload.language as Row | undefined;
        if (language && !/^languageConstants\/10\d\d$/.test(String(language.languageConstant)))
          return refusal('criterionError', 'INVALID_LANGUAGE', 'Not a language constant.', 'language', 'language_constant');
        break;
      }
      case 'adGroupCriterionOperation': {
        const keyword = payload.keyword as Row | undefined;
        const text = String(keyword?.text ?? '');
        if (text.length === 0 || text.length > 80)
          return refusal('stringLengthError', text ? 'TOO_LONG' : 'EMPTY', 'Keyword text must be 1 to 80 characters.', 'keyword', 'text');
        if (text.trim().split(/\s+/).length > 10)
          return refusal('criterionError', 'KEYWORD_HAS_TOO_MANY_WORDS', 'A keyword has at most 10 words.', 'keyword', 'text');
        break;
      }
      case 'adGroupAdOperation': {
        const ad = (payload.ad ?? {}) as Row;
        const rsa = ad.responsiveSearchAd as { headlines?: Row[]; descriptions?: Row[] } | undefined;
        if (!rsa) return refusal('adError', 'AD_TYPE_NOT_SUPPORTED', 'Only responsive search ads are supported.', 'ad');
        const headlines = rsa.headlines ?? [];
        const descriptions = rsa.descriptions ?? [];
        if (headlines.length < 3)
          return refusal('adError', 'TOO_FEW_HEADLINES', 'A responsive search ad needs at least 3 headlines.', 'ad', 'responsive_search_ad', 'headlines');
        if (headlines.length > 15)
          return refusal('adError', 'TOO_MANY_HEADLINES', 'A responsive search ad has at most 15 headlines.', 'ad', 'responsive_search_ad', 'headlines');
        if (descriptions.length < 2)
          return refusal(
            'adError',
            'TOO_FEW_DESCRIPTIONS',
            'A responsive search ad needs at least 2 descriptions.',
            'ad',
            'responsive_search_ad',
            'descriptions',
          );
        if (descriptions.length > 4)
          return refusal(
            'adError',
            'TOO_MANY_DESCRIPTIONS',
            'A responsive search ad has at most 4 descriptions.',
            'ad',
            'responsive_search_ad',
            'descriptions',
          );
        for (const [name, list, max] of [
          ['headlines', headlines, 30],
          ['descriptions', descriptions, 90],
        ] as const) {
          for (const [textIndex, asset] of list.entries()) {
            if (String(asset.text ?? '').length > max)
              return refusal('stringLengthError', 'TOO_LONG', 'Too long.', 'ad', 'responsive_search_ad', { fieldName: name, index: textIndex }, 'text');
          }
        }
        const urls = (ad.finalUrls as string[] | undefined) ?? [];
        if (urls.length === 0 || urls.some((url) => !/^https?:\/\/[^\s/]+\.[^\s]+/.test(url)))
          return refusal('urlFieldError', 'INVALID_URL', 'The final URL is not valid.', 'ad', 'final_urls');
        break;
      }
      case 'assetOperation': {
        const callout = payload.calloutAsset as Row | undefined;
        if (callout && (String(callout.calloutText ?? '').length === 0 || String(callout.calloutText).length > 25)) {
          return refusal('stringLengthError', 'TOO_LONG', 'Callout text is 1 to 25 characters.', 'callout_asset', 'callout_text');
        }
        const call = payload.callAsset as Row | undefined;
        if (call) {
          if (!/^[A-Z]{2}$/.test(String(call.countryCode)))
            return refusal('assetError', 'CALL_INVALID_COUNTRY_CODE', 'Invalid country code.', 'call_asset', 'country_code');
          const digits = String(call.phoneNumber ?? '').replace(/\D/g, '');
          if (digits.length < 6 || digits.length > 15)
            return refusal('assetError', 'CALL_INVALID_PHONE_NUMBER', 'Invalid phone number.', 'call_asset', 'phone_number');
        }
        const image = payload.imageAsset as Row | undefined;
        if (image) {
          if (!payload.name) return refusal('assetError', 'NAME_REQUIRED_FOR_ASSET_TYPE', 'Image assets need a name.', 'name');
          if (names('assets').has(payload.name)) return refusal('assetError', 'DUPLICATE_ASSET_NAME', 'An asset with this name exists.', 'name');
          const bytes = Buffer.from(String(image.data ?? ''), 'base64');
          const png = bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
          const jpeg = bytes[0] === 0xff && bytes[1] === 0xd8;
          if (!png && !jpeg) return refusal('imageError', 'FORMAT_NOT_ALLOWED', 'The image format is not allowed.', 'image_asset', 'data');
          if (bytes.length > 5 * 1024 * 1024) return refusal('imageError', 'FILE_TOO_LARGE', 'The image is too large.', 'image_asset', 'data');
        }
        break;
      }
      case 'campaignAssetOperation':
        if (!SEARCH_ASSET_FIELDS.has(String(payload.fieldType))) {
          return refusal(
            'assetLinkError',
            'FIELD_TYPE_INCOMPATIBLE_WITH_CAMPAIGN_TYPE',
            'The field type is not compatible with Search campaigns.',
            'field_type',
          );
        }
        break;
      default:
        break;
    }
    // allocate a real id and the resource name of the platform's format
    const id = String(++nextId * 7919);
    let resourceName: string;
    const campaignId = () => resolve(String(payload.campaign)).split('/').pop();
    const adGroupId = () => resolve(String(payload.adGroup)).split('/').pop();
    switch (key) {
      case 'campaignCriterionOperation':
        resourceName = `customers/${cid}/campaignCriteria/${campaignId()}~${id}`;
        break;
      case 'adGroupCriterionOperation':
        resourceName = `customers/${cid}/adGroupCriteria/${adGroupId()}~${id}`;
        break;
      case 'adGroupAdOperation':
        resourceName = `customers/${cid}/adGroupAds/${adGroupId()}~${id}`;
        break;
      case 'campaignAssetOperation':
        resourceName = `customers/${cid}/campaignAssets/${campaignId()}~${resolve(String(payload.asset)).split('/').pop()}~${String(payload.fieldType)}`;
        break;
      case 'campaignAssetSetOperation':
        resourceName = `customers/${cid}/campaignAssetSets/${campaignId()}~${String(payload.assetSet).split('/').pop()}`;
        break;
      default:
        resourceName = `customers/${cid}/${kind}/${id}`;
    }
    if (typeof payload.resourceName === 'string') real.set(payload.resourceName, resourceName);
    const references = kind === 'campaigns' && typeof payload.campaignBudget === 'string' ? { campaignBudget: resolve(payload.campaignBudget) } : {};
    staged.set(resourceName, { kind, data: { ...payload, ...references, resourceName, createdOn: today } });
    results.push({ [RESULT_OF[key] as string]: { resourceName } });
  }

  const id = requestId();
  if (body.validateOnly === true) return { status: 200, body: {}, headers: { 'request-id': id } };
  for (const [name, resource] of staged) {
    if (resource.kind === 'campaigns')
      Object.assign(resource.data, { servingStatus: 'SERVING', primaryStatus: 'LEARNING', primaryStatusReasons: [], display: false });
    account.resources.set(name, resource);
  }
  account.nextId = nextId;
  state.commits++;
  return { status: 200, body: { mutateOperationResponses: results }, headers: { 'request-id': id } };
}

// ---- searchStream ---------------------------------------------------------------------------

/** Deterministic pseudo-random in [0, 1) for a campaign and a day. */
const noise = (seed: string) => createHash('md5').update(seed).digest().readUInt32BE(0) / 2 ** 32;

export function dailyMetrics(campaignId: string, date: string, network: 'SEARCH' | 'CONTENT'): Row | undefined {
  const roll = noise(`${campaignId}:${date}:${network}`);
  if (roll < 0.1) return undefined; // a day with no traffic is not returned
  const impressions = Math.floor((network === 'SEARCH' ? 600 : 2000) + roll * 1400);
  const clicks = Math.floor(impressions * (network === 'SEARCH' ? 0.02 + roll * 0.04 : 0.002 + roll * 0.004));
  const costMicros = clicks * (800_000 + Math.floor(roll * 900_000));
  const conversions = Math.floor(clicks * 0.08 * roll * 2);
  const metrics: Row = {
    clicks: String(clicks),
    conversions,
    costMicros: String(costMicros - (costMicros % 10_000)),
    ctr: clicks / impressions,
    averageCpm: (costMicros / impressions) * 1000,
    impressions: String(impressions),
    interactions: String(clicks),
    allConversions: conversions + (roll > 0.5 ? 1 : 0),
    conversionsValue: Math.round(conversions * 121.25 * 100) / 100,
    allConversionsValue: Math.round(conversions * 137.5 * 100) / 100,
    topImpressionPercentage: Math.round((0.4 + roll * 0.4) * 10_000) / 10_000,
    searchImpressionShare: Math.max(0.0999, Math.round(roll * 10_000) / 10_000),
    searchBudgetLostImpressionShare: Math.min(0.9001, Math.round((1 - roll) * 0.3 * 10_000) / 10_000),
    searchRankLostImpressionShare: Math.min(0.9001, Math.round((1 - roll) * 0.5 * 10_000) / 10_000),
    phoneCalls: String(Math.floor(roll * 4)),
    phoneImpressions: String(Math.floor(impressions / 4)),
    phoneThroughRate: Math.floor(roll * 4) / Math.max(1, Math.floor(impressions / 4)),
    videoTrueviewViews: '0',
    videoTrueviewViewRate: 0,
  };
  if (clicks > 0) metrics.averageCpc = costMicros / clicks;
  if (conversions > 0) metrics.costPerConversion = costMicros / conversions;
  return metrics;
}

function searchStream(request: SandboxRequest, state: SearchadsState, cid: string): SandboxResponse {
  const query = String(request.fields.query ?? '');
  const checked = checkAgainstProtos('services.SearchGoogleAdsStreamRequest', { customerId: cid, ...request.fields });
  if (checked.problems[0]) return invalid('requestError', 'INVALID_INPUT', checked.problems[0].message, checked.problems[0].path);
  if (!/^\s*SELECT\s.+\sFROM\s+campaign\b/is.test(query))
    return invalid('queryError', 'UNEXPECTED_END_OF_QUERY', 'This sandbox answers queries FROM campaign.');
  const between = query.match(/segments\.date\s+BETWEEN\s+'([^']*)'\s+AND\s+'([^']*)'/i);
  if (/segments\.date/.test(query.split(/\sFROM\s/i)[0] ?? '') && !between) {
    return invalid('queryError', 'EXPECTED_FILTERS_ON_DATE_RANGE', 'Filters on date range are expected when segments.date is selected.');
  }
  const [from, to] = [between?.[1] ?? '', between?.[2] ?? ''];
  if (between && !(/^\d{4}-\d{2}-\d{2}$/.test(from) && /^\d{4}-\d{2}-\d{2}$/.test(to)))
    return invalid('queryError', 'INVALID_DATE_FORMAT', 'Invalid date format.');
  const oneCampaign = query.match(/campaign\.id\s*=\s*(\d+)/i)?.[1];
  const someCampaigns = query.match(/campaign\.id\s+IN\s*\(([^)]*)\)/i)?.[1];
  if (someCampaigns !== undefined && !/^\s*\d+(\s*,\s*\d+)*\s*$/.test(someCampaigns))
    return invalid('queryError', 'INVALID_VALUE_WITH_IN_OPERATOR', 'Invalid value with IN operator: a list of numbers is expected.');
  const wanted = oneCampaign ? new Set([oneCampaign]) : someCampaigns ? new Set(someCampaigns.split(',').map((id) => id.trim())) : undefined;
  const content = /segments\.ad_network_type\s*=\s*'CONTENT'/i.test(query);
  const account = state.accounts.get(cid) ?? newAccount(cid);
  state.accounts.set(cid, account);
  const results: Row[] = [];
  for (const [name, resource] of account.resources) {
    if (resource.kind !== 'campaigns') continue;
    const id = name.split('/').pop() as string;
    if (wanted && !wanted.has(id)) continue;
    if (content && !resource.data.display) continue;
    for (let offset = -(DAYS_OF_METRICS - 1); offset <= 0; offset++) {
      const date = day(offset);
      if (between && (date < from || date > to)) continue;
      const metrics = dailyMetrics(id, date, content ? 'CONTENT' : 'SEARCH');
      if (!metrics) continue;
      const campaign: Row = { resourceName: name, id };
      if (!content) {
        Object.assign(campaign, {
          status: resource.data.status ?? 'ENABLED',
          servingStatus: resource.data.servingStatus,
          advertisingChannelType: 'SEARCH',
          name: resource.data.name,
          primaryStatus: resource.data.primaryStatus,
          ...((resource.data.primaryStatusReasons as string[] | undefined)?.length ? { primaryStatusReasons: resource.data.primaryStatusReasons } : {}),
        });
      }
      results.push({ campaign, metrics, segments: { date, ...(content ? { adNetworkType: 'CONTENT' } : {}) } });
    }
  }
  const id = requestId();
  const batch: Row = { fieldMask: 'campaign.id,segments.date,metrics', requestId: id, queryResourceConsumption: String(40 + results.length) };
  if (results.length > 0) batch.results = results;
  return { status: 200, body: [batch], headers: { 'request-id': id } };
}

export interface SearchadsSandbox extends Sandbox {
  state: SearchadsState;
}

/** `accountsFile`: where the customers' campaigns and budgets are kept across restarts (the data folder). */
export async function startSearchadsSandbox(options: { accountsFile?: string } = {}): Promise<SearchadsSandbox> {
  const state: SearchadsState = {
    tokens: new Map(),
    connect: newSearchadsConnectState(),
    accounts: new Map([[DEMO_CONNECTIONS.searchads.customerId, newAccount(DEMO_CONNECTIONS.searchads.customerId)]]),
    commits: 0,
  };
  const { accountsFile } = options;
  if (accountsFile && existsSync(accountsFile)) {
    const saved = JSON.parse(readFileSync(accountsFile, 'utf8')) as Array<
      [string, { nextId: number; resources: Array<[string, { kind: string; data: Row }]> }]
    >;
    state.accounts = new Map(saved.map(([cid, account]) => [cid, { nextId: account.nextId, resources: new Map(account.resources) }]));
  }
  const save = () => {
    if (accountsFile)
      writeFileSync(
        accountsFile,
        JSON.stringify([...state.accounts].map(([cid, account]) => [cid, { nextId: account.nextId, resources: [...account.resources] }])),
      );
  };
  const accountOf = (cid: string) => {
    const account = state.accounts.get(cid) ?? newAccount(cid);
    state.accounts.set(cid, account);
    return account;
  };
  const committing =
    (handle: (request: SandboxRequest, state: SearchadsState, cid: string) => SandboxResponse) =>
    (request: SandboxRequest, state: SearchadsState, cid: string): SandboxResponse => {
      const commits = state.commits;
      const answer = handle(request, state, cid);
      if (state.commits !== commits) save();
      return answer;
    };
  const control =
    (mutateWith: (request: SandboxRequest, account: Account, cid: string) => { answer: SandboxResponse; committed: boolean }) =>
    (request: SandboxRequest, state: SearchadsState, cid: string): SandboxResponse => {
      const { answer, committed } = mutateWith(request, accountOf(cid), cid);
      if (committed) {
        state.commits++;
        save();
      }
      return { ...answer, headers: { 'request-id': requestId(), ...answer.headers } };
    };
  const ads = (pattern: RegExp, handle: (request: SandboxRequest, state: SearchadsState, cid: string) => SandboxResponse): SandboxRoute => ({
    method: 'POST',
    path: pattern,
    handle: (request, params) => {
      if (params.version !== 'v26' && params.version !== 'v25') {
        return failure(404, 'NOT_FOUND', [{ errorCode: { requestError: 'UNSUPPORTED_VERSION' }, message: `Version ${params.version} is not supported.` }]);
      }
      return authenticate(request, state) ?? handle(request, state, params.cid as string);
    },
  });
  const routes: SandboxRoute[] = [
    { method: 'POST', path: /^\/token$/, handle: (request) => token(request, state) },
    ads(/^\/(?<version>v\d+)\/customers\/(?<cid>\d{10})\/googleAds:mutate$/, committing(mutate)),
    ads(
      /^\/(?<version>v\d+)\/customers\/(?<cid>\d{10})\/campaigns:mutate$/,
      control((request, account) => mutateCampaigns(request, account, invalid)),
    ),
    ads(
      /^\/(?<version>v\d+)\/customers\/(?<cid>\d{10})\/campaignBudgets:mutate$/,
      control((request, account, cid) => mutateBudgets(request, account, cid, invalid)),
    ),
    ads(/^\/(?<version>v\d+)\/customers\/(?<cid>\d{10})\/googleAds:searchStream$/, searchStream),
    ads(
      /^\/(?<version>v\d+)\/customers\/(?<cid>\d{10})\/googleAds:search$/,
      (request, state, cid) =>
        // the connect flow's customers answer as the connect flow knows them; any other is an account of the control sandbox
        (CUSTOMERS[cid] || !/\bFROM\s+customer\s*$/i.test(String(request.fields.query ?? ''))
          ? searchAccounts(request, state.connect, bearerOf(request), cid, failure)
          : undefined) ??
        searchCampaigns(request, accountOf(cid), cid, invalid) ??
        invalid(
          'queryError',
          'PROHIBITED_RESOURCE_TYPE_IN_SELECT_CLAUSE',
          'This sandbox answers googleAds:search for the customer, customer_client, campaign and currency_constant resources only.',
        ),
    ),
    {
      method: 'GET',
      path: /^\/(?<version>v\d+)\/customers:listAccessibleCustomers$/,
      handle: (request) => authenticate(request, state) ?? listAccessibleCustomers(bearerOf(request), state.connect),
    },
    { method: 'GET', path: /^\/o\/oauth2\/v2\/auth$/, handle: (request) => consentScreen(request, state.connect, SANDBOX_APP_CREDENTIALS.SEARCHADS_CLIENT_ID) },
    {
      method: 'POST',
      path: /^\/o\/oauth2\/v2\/auth$/,
      handle: (request) => consentAnswer(request, state.connect, SANDBOX_APP_CREDENTIALS.SEARCHADS_CLIENT_ID),
    },
    { method: 'POST', path: /^\/revoke$/, handle: (request) => revoke(request.fields as Record<string, string>, state.connect) },
  ];
  const seedCampaigns = (cid: string, count: number) => {
    const account = accountOf(cid);
    const ids = Array.from({ length: count }, (_, index) => {
      const budget = `customers/${cid}/campaignBudgets/${account.nextId++}`;
      const id = String(31_000_000_000 + account.nextId++);
      account.resources.set(budget, {
        kind: 'campaignBudgets',
        data: { name: `Scale ${index + 1}`, amountMicros: '25000000', period: 'DAILY', explicitlyShared: false, status: 'ENABLED' },
      });
      account.resources.set(`customers/${cid}/campaigns/${id}`, {
        kind: 'campaigns',
        data: { campaignBudget: budget, name: `Scale ${index + 1}`, status: 'ENABLED', servingStatus: 'SERVING', display: false },
      });
      return id;
    });
    save();
    return ids;
  };
  const sandbox = await startSandbox(
    'searchads',
    routes,
    (request) => ({
      status: 404,
      body: { error: { code: 404, message: `The requested URL ${request.path} was not found on this server.`, status: 'NOT_FOUND' } },
    }),
    0,
    seedCampaigns,
  );
  return Object.assign(sandbox, { state });
}
