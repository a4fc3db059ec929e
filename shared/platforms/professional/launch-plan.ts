import type { ProfessionalLaunchInput, ProfessionalLaunchPlan, ProfessionalObjective } from '../../schemas/professional-launch.ts';

/**
 * A professional launch request in the platform's words (docs/platforms.md, "Professional: launching a
 * campaign"): the bodies of the group, the campaign and each creative, stored with the job so that
 * every run sends exactly the same. Pure: the parents' URNs and the schedule are added by the job.
 */
export type { ProfessionalLaunchPlan };

/** Our objective → the platform's singular enum symbol and its automatic-bidding goal. */
export const OBJECTIVE_TABLE: Record<ProfessionalObjective, { objectiveType: string; optimizationTargetType: string }> = {
  BRAND_AWARENESS: { objectiveType: 'BRAND_AWARENESS', optimizationTargetType: 'MAX_IMPRESSION' },
  WEBSITE_VISITS: { objectiveType: 'WEBSITE_VISIT', optimizationTargetType: 'MAX_CLICK' },
  ENGAGEMENT: { objectiveType: 'ENGAGEMENT', optimizationTargetType: 'MAX_CLICK' },
  LEAD_GENERATION: { objectiveType: 'LEAD_GENERATION', optimizationTargetType: 'MAX_LEAD' },
  VIDEO_VIEWS: { objectiveType: 'VIDEO_VIEW', optimizationTargetType: 'MAX_VIDEO_VIEW' },
};

const FACET = 'urn:li:adTargetingFacet:';

/** `targetingCriteria`: every facet ANDed, the values of one facet ORed; locations and interface locales always. */
export function targetingCriteriaOf(input: ProfessionalLaunchInput): Record<string, unknown> {
  const { locations, languages, audienceIds, industries, seniorities, jobFunctions } = input.targeting;
  const facets: Array<[string, string[] | undefined]> = [
    ['locations', locations],
    ['interfaceLocales', (languages ?? [input.locale]).map((locale) => `urn:li:locale:${locale}`)],
    ['audienceMatchingSegments', audienceIds],
    ['industries', industries],
    ['seniorities', seniorities],
    ['jobFunctions', jobFunctions],
  ];
  return {
    include: { and: facets.filter(([, values]) => values?.length).map(([facet, values]) => ({ or: { [`${FACET}${facet}`]: values } })) },
  };
}

export function professionalLaunchPlan(
  input: ProfessionalLaunchInput,
  facts: { adAccountId: string; author: string; currency: string; budget: string },
): ProfessionalLaunchPlan {
  const account = `urn:li:sponsoredAccount:${facts.adAccountId}`;
  const [language, country] = input.locale.split('_') as [string, string];
  const video = input.ads.some((ad) => ad.videoId);
  const leadForm = input.leadFormId ? `urn:li:adForm:${input.leadFormId}` : undefined;
  return {
    adAccountId: facts.adAccountId,
    group: { account, name: input.name, status: 'DRAFT' },
    campaign: {
      account,
      associatedEntity: facts.author,
      name: input.name,
      type: 'SPONSORED_UPDATES',
      format: video ? 'SINGLE_VIDEO' : 'STANDARD_UPDATE',
      ...OBJECTIVE_TABLE[input.objective],
      costType: input.costType,
      dailyBudget: { amount: facts.budget, currencyCode: facts.currency },
      locale: { country, language },
      targetingCriteria: targetingCriteriaOf(input),
      offsiteDeliveryEnabled: false,
      audienceExpansionEnabled: false,
      politicalIntent: input.politicalIntent,
      status: 'DRAFT',
    },
    creatives: input.ads.map((ad) => ({
      name: ad.name,
      media: (ad.imageId ?? ad.videoId) as string,
      creative: {
        intendedStatus: 'DRAFT',
        name: ad.name,
        inlineContent: {
          post: {
            adContext: { dscAdAccount: account, dscStatus: 'ACTIVE' },
            author: facts.author,
            commentary: ad.commentary,
            visibility: 'PUBLIC',
            distribution: { feedDistribution: 'NONE', targetEntities: [], thirdPartyDistributionChannels: [] },
            lifecycleState: 'PUBLISHED',
            isReshareDisabledByAuthor: false,
            ...(ad.link ? { contentLandingPage: ad.link } : {}),
            ...(leadForm ? {} : { contentCallToActionLabel: ad.callToAction }),
            content: { media: { id: ad.imageId ?? ad.videoId, title: ad.headline } },
          },
        },
        ...(leadForm ? { leadgenCallToAction: { destination: leadForm, label: ad.callToAction } } : {}),
      },
    })),
    ...(input.startTime ? { startMs: Date.parse(input.startTime) } : {}),
    ...(input.endTime ? { endMs: Date.parse(input.endTime) } : {}),
  };
}

/** The creates a professional launch makes, in order (get_job shows them): campaign group, campaign, then a creative per ad. */
export const professionalLaunchSteps = (plan: ProfessionalLaunchPlan): string[] => [
  'group',
  'campaign',
  ...plan.creatives.map((_creative, index) => `creative:${index}`),
];
