import { PlatformRejected } from '../../core/errors.ts';
import type { CreateSearchCampaignInput } from '../../schemas/search-campaign.ts';
import { adsRequest, type SearchadsSession } from './client.ts';
import type { FetchedImage } from './images.ts';
import { languageConstantId } from '../../schemas/searchads-languages.ts';

/**
 * Operation 9 as ONE atomic `googleAds:mutate` (docs/platforms.md, "Search ads"): temporary resource names (negative ids)
 * tie the budget, campaign, criteria, ad group, keywords, ads, assets, links, conversion goal and
 * location group together, in the platform's documented order (docs/platforms.md, "Search ads"), so the platform creates all or nothing.
 */
type Operation = Record<string, unknown>;

/** "19.99" → "19990000", in integer arithmetic. */
export function toMicros(amount: string): string {
  const [units = '0', fraction = ''] = amount.split('.');
  return (BigInt(units) * 1_000_000n + BigInt(fraction.padEnd(6, '0').slice(0, 6) || '0')).toString();
}

export function buildCampaignMutate(
  input: CreateSearchCampaignInput,
  customerId: string,
  images: FetchedImage[],
  nameSuffix: string,
): { mutateOperations: Operation[]; partialFailure: false; validateOnly: boolean; responseContentType: 'RESOURCE_NAME_ONLY' } {
  const prefix = `customers/${customerId}`;
  const budget = `${prefix}/campaignBudgets/-1`;
  const campaign = `${prefix}/campaigns/-2`;
  const adGroup = `${prefix}/adGroups/-3`;
  let nextTemp = -4;
  const operations: Operation[] = [];

  operations.push({
    campaignBudgetOperation: {
      create: {
        resourceName: budget,
        name: `${input.campaignName} budget ${nameSuffix}`,
        amountMicros: toMicros(input.dailyBudget),
        deliveryMethod: 'STANDARD',
        explicitlyShared: false,
      },
    },
  });
  operations.push({
    campaignOperation: {
      create: {
        resourceName: campaign,
        name: input.campaignName,
        status: 'ENABLED',
        advertisingChannelType: 'SEARCH',
        campaignBudget: budget,
        ...(input.objective === 'TRAFFIC' ? { targetSpend: {} } : { maximizeConversions: {} }),
        networkSettings: { targetGoogleSearch: true, targetSearchNetwork: true, targetContentNetwork: false, targetPartnerSearchNetwork: false },
        geoTargetTypeSetting: { positiveGeoTargetType: input.geo_target_type, negativeGeoTargetType: 'PRESENCE' },
        containsEuPoliticalAdvertising: 'DOES_NOT_CONTAIN_EU_POLITICAL_ADVERTISING',
        startDateTime: `${input.startDate} 00:00:00`,
        ...(input.endDate ? { endDateTime: `${input.endDate} 23:59:59` } : {}),
        ...(input.utmParams ? { finalUrlSuffix: input.utmParams } : {}),
      },
    },
  });

  if (input.objective === 'CONVERSION' && input.conversionEvents?.length) {
    const goal = `${prefix}/customConversionGoals/${nextTemp--}`;
    operations.push({
      customConversionGoalOperation: {
        create: {
          resourceName: goal,
          name: `${input.campaignName} goal ${nameSuffix}`,
          conversionActions: input.conversionEvents.map((id) => `${prefix}/conversionActions/${id}`),
          status: 'ENABLED',
        },
      },
    });
    operations.push({
      conversionGoalCampaignConfigOperation: {
        update: { resourceName: `${prefix}/conversionGoalCampaignConfigs/-2`, goalConfigLevel: 'CAMPAIGN', customConversionGoal: goal },
        updateMask: 'goalConfigLevel,customConversionGoal',
      },
    });
  }

  const criterion = (fields: Operation) => operations.push({ campaignCriterionOperation: { create: { campaign, ...fields } } });
  for (const id of input.locations ?? []) criterion({ location: { geoTargetConstant: `geoTargetConstants/${id}` } });
  for (const proximity of input.proximityTargeting ?? []) {
    criterion({
      proximity: {
        geoPoint: { latitudeInMicroDegrees: proximity.latitude_in_micro_degrees, longitudeInMicroDegrees: proximity.longitude_in_micro_degrees },
        radius: proximity.radius,
        radiusUnits: proximity.radius_units,
      },
    });
  }
  for (const id of input.negativeLocations ?? []) criterion({ negative: true, location: { geoTargetConstant: `geoTargetConstants/${id}` } });
  for (const code of input.languages ?? []) criterion({ language: { languageConstant: `languageConstants/${languageConstantId(code)}` } });
  for (const keyword of input.negativeKeywords ?? []) criterion({ negative: true, keyword: { text: keyword.text, matchType: keyword.match_type } });

  operations.push({
    adGroupOperation: { create: { resourceName: adGroup, name: `${input.campaignName} - ad group 1`, campaign, status: 'ENABLED', type: 'SEARCH_STANDARD' } },
  });
  for (const keyword of input.keywords) {
    operations.push({ adGroupCriterionOperation: { create: { adGroup, status: 'ENABLED', keyword: { text: keyword.text, matchType: keyword.match_type } } } });
  }
  for (const ad of input.ads) {
    operations.push({
      adGroupAdOperation: {
        create: {
          adGroup,
          status: 'ENABLED',
          ad: {
            finalUrls: [ad.url],
            responsiveSearchAd: {
              headlines: ad.headlines.map((text, index) => ({ text, ...(index === ad.headlineIndexToPinFirstSlot ? { pinnedField: 'HEADLINE_1' } : {}) })),
              descriptions: ad.descriptions.map((text, index) => ({
                text,
                ...(index === ad.descriptionIndexToPinFirstSlot ? { pinnedField: 'DESCRIPTION_1' } : {}),
              })),
            },
          },
        },
      },
    });
  }

  const links: Operation[] = [];
  const asset = (fields: Operation, fieldType: string) => {
    const resourceName = `${prefix}/assets/${nextTemp--}`;
    operations.push({ assetOperation: { create: { resourceName, ...fields } } });
    links.push({ campaignAssetOperation: { create: { campaign, asset: resourceName, fieldType } } });
  };
  for (const text of input.callouts) asset({ calloutAsset: { calloutText: text } }, 'CALLOUT');
  if (input.phoneNumber && input.phoneNumberCountryCode)
    asset({ callAsset: { countryCode: input.phoneNumberCountryCode, phoneNumber: input.phoneNumber } }, 'CALL');
  for (const [index, image] of images.entries())
    asset({ name: `${input.campaignName} image ${index + 1} ${nameSuffix}`, imageAsset: { data: image.base64 } }, 'AD_IMAGE');
  operations.push(...links);
  if (input.leadFormAssetId) {
    operations.push({ campaignAssetOperation: { create: { campaign, asset: `${prefix}/assets/${input.leadFormAssetId}`, fieldType: 'LEAD_FORM' } } });
  }
  if (input.locationGroupId) {
    operations.push({ campaignAssetSetOperation: { create: { campaign, assetSet: `${prefix}/assetSets/${input.locationGroupId}` } } });
  }

  return { mutateOperations: operations, partialFailure: false, validateOnly: input.validateOnly, responseContentType: 'RESOURCE_NAME_ONLY' };
}

export interface CampaignCreated {
  campaignResourceName: string;
  adGroupResourceName: string;
  additionalMessage: string;
}

export async function createSearchCampaign(
  session: SearchadsSession,
  input: CreateSearchCampaignInput,
  images: FetchedImage[],
  nameSuffix: string,
): Promise<CampaignCreated> {
  const body = buildCampaignMutate(input, session.customerId, images, nameSuffix);
  // a timed-out mutate may have been applied: it is not sent again blindly (docs/platforms.md, "Search ads")
  const response = await adsRequest<{ mutateOperationResponses?: Array<Record<string, { resourceName?: string }>> }>(session, 'googleAds:mutate', body, {
    retrySafe: false,
  });
  if (input.validateOnly) {
    return {
      campaignResourceName: '',
      adGroupResourceName: '',
      additionalMessage: `Dry run: the platform accepted all ${body.mutateOperations.length} operations; nothing was created.`,
    };
  }
  const results = response.mutateOperationResponses ?? [];
  const campaignResourceName = results.find((result) => result.campaignResult)?.campaignResult?.resourceName;
  const adGroupResourceName = results.find((result) => result.adGroupResult)?.adGroupResult?.resourceName;
  if (!campaignResourceName || !adGroupResourceName) throw new PlatformRejected('searchads', 'The platform’s answer named no campaign or ad group.');
  return { campaignResourceName, adGroupResourceName, additionalMessage: '' };
}
