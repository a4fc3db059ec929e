import { checkAgainstProtos } from './searchads-proto.ts';
import { type Row, type SearchadsState, requestId, day, newAccount, invalid } from './searchads-state.ts';
import type { SandboxRequest, SandboxResponse } from './server.ts';

/** The search-ads sandbox's `googleAds:mutate`: atomic operations checked against the protos and the platform's server-side rules. */

export const KIND_OF: Record<string, string> = {
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
export const RESULT_OF: Record<string, string> = {
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
export const SEARCH_ASSET_FIELDS = new Set(['CALLOUT', 'CALL', 'LEAD_FORM', 'AD_IMAGE', 'SITELINK', 'STRUCTURED_SNIPPET']);

export function mutate(request: SandboxRequest, state: SearchadsState, cid: string): SandboxResponse {
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
