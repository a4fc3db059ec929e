import { describe, expect, it } from 'vitest';
import { PlatformRejected } from '../../shared/core/errors.ts';
import { professionalLaunchPlan, targetingCriteriaOf } from '../../shared/platforms/professional/launch-plan.ts';
import { accountIneligibility, launchRefusalOf, restliValue } from '../../shared/platforms/professional/launch.ts';
import { professionalLaunchRequest } from '../../shared/schemas/professional-launch.ts';

/** The professional launch request in the platform's words, and its refusals in ours: pure, no stack. */
const IMAGE = 'urn:li:image:D4E10AQFakeImg0001';
const VIDEO = 'urn:li:video:D5610AQFakeVid0001';
const base = {
  userId: 'alice',
  name: 'Winter Tune-Up 2026',
  objective: 'WEBSITE_VISITS',
  dailyBudget: '50.00',
  targeting: { locations: ['urn:li:geo:103644278'] },
  ads: [
    { name: 'Ad 1', imageId: IMAGE, commentary: 'Book a tune-up.', headline: 'From $89', link: 'https://www.example.com/winter', callToAction: 'LEARN_MORE' },
  ],
};
/** an ad without its image (a JSON body has no key set to undefined) */
const withoutImage = <Ad extends { imageId?: string }>({ imageId: _image, ...ad }: Ad) => ad;
const input = (overrides: Record<string, unknown> = {}) => professionalLaunchRequest.parse({ ...base, ...overrides });
const facts = { adAccountId: '500000001', author: 'urn:li:organization:2414183', currency: 'USD', budget: '50.00' };

describe('the professional launch plan', () => {
  it.each([
    ['BRAND_AWARENESS', 'BRAND_AWARENESS', 'MAX_IMPRESSION', {}],
    ['WEBSITE_VISITS', 'WEBSITE_VISIT', 'MAX_CLICK', {}],
    ['ENGAGEMENT', 'ENGAGEMENT', 'MAX_CLICK', {}],
    ['LEAD_GENERATION', 'LEAD_GENERATION', 'MAX_LEAD', { leadFormId: '4400001' }],
    ['VIDEO_VIEWS', 'VIDEO_VIEW', 'MAX_VIDEO_VIEW', { ads: [{ ...withoutImage(base.ads[0] as { imageId?: string }), videoId: VIDEO }] }],
  ])('%s → the singular symbol %s with the goal %s on CPM', (objective, objectiveType, goal, extra) => {
    const plan = professionalLaunchPlan(input({ objective, ...extra }), facts);
    expect(plan.campaign).toMatchObject({ objectiveType, optimizationTargetType: goal, costType: 'CPM', status: 'DRAFT' });
    expect(plan.campaign.format).toBe(objective === 'VIDEO_VIEWS' ? 'SINGLE_VIDEO' : 'STANDARD_UPDATE');
    expect(plan.campaign).not.toHaveProperty('unitCost');
  });

  it('the group, the campaign’s fixed fields and a creative with its dark post, all DRAFT', () => {
    const plan = professionalLaunchPlan(input({ startTime: '2999-01-01T09:00:00Z', endTime: '2999-02-01T09:00:00Z' }), facts);
    expect(plan.group).toEqual({ account: 'urn:li:sponsoredAccount:500000001', name: base.name, status: 'DRAFT' });
    expect(plan.campaign).toMatchObject({
      associatedEntity: facts.author,
      type: 'SPONSORED_UPDATES',
      dailyBudget: { amount: '50.00', currencyCode: 'USD' },
      locale: { country: 'US', language: 'en' },
      offsiteDeliveryEnabled: false,
      audienceExpansionEnabled: false,
      politicalIntent: 'NOT_POLITICAL',
    });
    expect(plan.startMs).toBe(Date.parse('2999-01-01T09:00:00Z'));
    expect(plan.endMs).toBe(Date.parse('2999-02-01T09:00:00Z'));
    expect(plan.creatives[0]?.creative).toEqual({
      intendedStatus: 'DRAFT',
      name: 'Ad 1',
      inlineContent: {
        post: {
          adContext: { dscAdAccount: 'urn:li:sponsoredAccount:500000001', dscStatus: 'ACTIVE' },
          author: facts.author,
          commentary: 'Book a tune-up.',
          visibility: 'PUBLIC',
          distribution: { feedDistribution: 'NONE', targetEntities: [], thirdPartyDistributionChannels: [] },
          lifecycleState: 'PUBLISHED',
          isReshareDisabledByAuthor: false,
          contentLandingPage: 'https://www.example.com/winter',
          contentCallToActionLabel: 'LEARN_MORE',
          content: { media: { id: IMAGE, title: 'From $89' } },
        },
      },
    });
  });

  it('a lead ad: the form on the creative, its label there, no post call to action', () => {
    const { creative } = professionalLaunchPlan(input({ objective: 'LEAD_GENERATION', leadFormId: '4400001' }), facts).creatives[0] as {
      creative: Record<string, any>;
    };
    expect(creative.leadgenCallToAction).toEqual({ destination: 'urn:li:adForm:4400001', label: 'LEARN_MORE' });
    expect(creative.inlineContent.post.contentCallToActionLabel).toBeUndefined();
  });

  it('targeting: every facet ANDed, locations and interface locales always, the languages asked or the ads’ locale', () => {
    expect(targetingCriteriaOf(input({ locale: 'de_DE' }))).toEqual({
      include: {
        and: [
          { or: { 'urn:li:adTargetingFacet:locations': ['urn:li:geo:103644278'] } },
          { or: { 'urn:li:adTargetingFacet:interfaceLocales': ['urn:li:locale:de_DE'] } },
        ],
      },
    });
    const wide = targetingCriteriaOf(
      input({
        targeting: {
          locations: ['urn:li:geo:103644278', 'urn:li:geo:101174742'],
          languages: ['en_US', 'fr_FR'],
          audienceIds: ['urn:li:adSegment:10615'],
          industries: ['urn:li:industry:4'],
          seniorities: ['urn:li:seniority:6'],
          jobFunctions: ['urn:li:function:8'],
        },
      }),
    ) as { include: { and: Array<{ or: Record<string, string[]> }> } };
    expect(wide.include.and.map((facet) => Object.keys(facet.or)[0])).toEqual([
      'urn:li:adTargetingFacet:locations',
      'urn:li:adTargetingFacet:interfaceLocales',
      'urn:li:adTargetingFacet:audienceMatchingSegments',
      'urn:li:adTargetingFacet:industries',
      'urn:li:adTargetingFacet:seniorities',
      'urn:li:adTargetingFacet:jobFunctions',
    ]);
    expect(wide.include.and[1]?.or['urn:li:adTargetingFacet:interfaceLocales']).toEqual(['urn:li:locale:en_US', 'urn:li:locale:fr_FR']);
  });

  it('the request’s rules: cost type by objective, lead form, one format, lengths, unique names', () => {
    const refused = (overrides: Record<string, unknown>) => professionalLaunchRequest.safeParse({ ...base, ...overrides }).success;
    expect(refused({ objective: 'VIDEO_VIEWS', costType: 'CPV', ads: [{ ...withoutImage(base.ads[0] as { imageId?: string }), videoId: VIDEO }] })).toBe(true);
    expect(refused({ costType: 'CPV' })).toBe(false);
    expect(refused({ costType: 'CPC' })).toBe(false);
    expect(refused({ objective: 'LEAD_GENERATION' })).toBe(false);
    expect(refused({ objective: 'LEAD_GENERATION', leadFormId: '1', ads: [{ ...base.ads[0], link: undefined }] })).toBe(true);
    expect(refused({ ads: [{ ...base.ads[0], link: undefined }] })).toBe(false);
    expect(refused({ ads: [base.ads[0], { ...withoutImage(base.ads[0] as { imageId?: string }), name: 'Ad 2', videoId: VIDEO }] })).toBe(false);
    expect(refused({ ads: [base.ads[0], base.ads[0]] })).toBe(false);
    expect(refused({ ads: [{ ...base.ads[0], commentary: 'x'.repeat(600) }] })).toBe(true);
    expect(refused({ ads: [{ ...base.ads[0], commentary: 'x'.repeat(601) }] })).toBe(false);
    expect(refused({ name: 'x'.repeat(101) })).toBe(false);
    expect(refused({ ads: Array.from({ length: 16 }, (_, index) => ({ ...base.ads[0], name: `Ad ${index}` })) })).toBe(false);
    expect(refused({ ads: [{ ...base.ads[0], imageId: 'urn:li:digitalmediaAsset:1' }] })).toBe(false);
    expect(refused({ politicalIntent: 'NOT_DECLARED' })).toBe(false);
    expect(refused({ bid: '5.00' })).toBe(false);
  });
});

describe('the professional platform in the launch’s words', () => {
  const rejected = (status: number, fieldPath?: string, code = 'INVALID_VALUE') =>
    new PlatformRejected('professional', `The professional network answered ${status}`, {
      platformStatus: status,
      platformCode: code,
      serviceErrorCode: 100,
      ...(fieldPath ? { fieldPath } : {}),
    });
  it.each([
    [422, '/objectiveType', 'campaign', 'INVALID_OPTIMIZATION_FOR_OBJECTIVE'],
    [400, '/optimizationTargetType', 'campaign', 'INVALID_OPTIMIZATION_FOR_OBJECTIVE'],
    [400, '/costType', 'campaign', 'INVALID_OPTIMIZATION_FOR_OBJECTIVE'],
    [400, '/format', 'campaign', 'INVALID_OPTIMIZATION_FOR_OBJECTIVE'],
    [400, '/dailyBudget/amount', 'campaign', 'BUDGET_TOO_LOW'],
    [400, '/politicalIntent', 'campaign', 'DECLARATION_REQUIRED'],
    [400, '/creative/inlineContent/post/content/media/id', 'creative of ad 1', 'MEDIA_NOT_READY'],
    [400, '/name', 'campaign group', 'PLATFORM_REJECTED'],
    [422, undefined, 'creative of ad 2', 'PLATFORM_REJECTED'],
  ])('%s on %s (%s) → %s', (status, fieldPath, step, expected) => {
    const mapped = launchRefusalOf(rejected(status, fieldPath), step, ['rw_ads', 'w_organization_social']) as { code: string; extra: Record<string, unknown> };
    expect(mapped.code).toBe(expected);
    expect(mapped.extra.platformDetail).toMatchObject({ code: 'INVALID_VALUE', subcode: 100 });
  });

  it('a 403: SCOPE_MISSING when the scope is not known to be held (creatives) or known to be missing (group, campaign)', () => {
    const forbidden = rejected(403, undefined, 'ACCESS_DENIED');
    const scopeOf = (error: unknown) => (error as { extra: { scope?: string } }).extra.scope;
    expect(scopeOf(launchRefusalOf(forbidden, 'creative of ad 1', undefined))).toBe('w_organization_social');
    expect(scopeOf(launchRefusalOf(forbidden, 'creative of ad 1', ['rw_ads']))).toBe('w_organization_social');
    expect((launchRefusalOf(forbidden, 'creative of ad 1', ['w_organization_social']) as { code: string }).code).toBe('PAGE_NOT_AUTHORIZED');
    expect((launchRefusalOf(forbidden, 'campaign', undefined) as { code: string }).code).toBe('ACCOUNT_NOT_ELIGIBLE');
    expect(scopeOf(launchRefusalOf(forbidden, 'campaign', ['r_ads']))).toBe('rw_ads');
    expect((launchRefusalOf(forbidden, 'campaign group', ['rw_ads']) as { code: string }).code).toBe('ACCOUNT_NOT_ELIGIBLE');
  });

  it('an account that cannot launch: not ACTIVE, or held', () => {
    const account = { currency: 'USD', decimals: 2, status: 'ACTIVE', servingStatuses: ['RUNNABLE'] };
    expect(accountIneligibility(account)).toBeUndefined();
    expect(accountIneligibility({ ...account, status: 'CANCELED' })).toMatch(/CANCELED/);
    expect(accountIneligibility({ ...account, servingStatuses: ['BILLING_HOLD'] })).toMatch(/BILLING_HOLD/);
  });

  it("a Rest.li value: spaces and the reserved ( ) , : ' percent-encoded", () => {
    expect(restliValue("Q1 (north), 'EU': 50%")).toBe('Q1%20%28north%29%2C%20%27EU%27%3A%2050%25');
    expect(restliValue('urn:li:sponsoredCampaign:600000301')).toBe('urn%3Ali%3AsponsoredCampaign%3A600000301');
  });
});
