import { describe, expect, it } from 'vitest';
import { PlatformRejected } from '../../shared/core/errors.ts';
import { creativeParams, inAccountTime, socialLaunchPlan, targetingOf } from '../../shared/platforms/social/launch-plan.ts';
import { launchRefusalOf } from '../../shared/platforms/social/launch.ts';
import { socialLaunchRequest } from '../../shared/schemas/social-launch.ts';

/** The launch request in the platform's words: pure, no stack. */
const HASH = '8c1f0e4b2a7d9c3e5f6a1b2c3d4e5f60';
const base = {
  userId: 'alice',
  name: 'Winter Tune-Up 2026',
  objective: 'TRAFFIC',
  dailyBudget: '50',
  targeting: { locations: [{ key: 'US', type: 'country' }] },
  ads: [
    {
      name: 'Ad 1',
      imageId: HASH,
      primaryText: 'Book a tune-up.',
      headline: 'From $89',
      description: 'Same-week slots.',
      link: 'https://www.example.com/winter',
      callToAction: 'LEARN_MORE',
    },
  ],
};
/** an ad without its image (a JSON body has no key set to undefined) */
const withoutImage = <Ad extends { imageId?: string }>({ imageId: _image, ...ad }: Ad) => ad;
const input = (overrides: Record<string, unknown> = {}) => socialLaunchRequest.parse({ ...base, ...overrides });
const facts = { adAccountId: '284756109384756', pageId: '109876543210987', timeZone: 'America/Los_Angeles', budgetUnits: 5000n };

describe('the social launch plan', () => {
  it('every objective of the table: the platform objective, goal, destination and promoted object', () => {
    const cases: Array<[Record<string, unknown>, Record<string, unknown>]> = [
      [{ objective: 'AWARENESS' }, { objective: 'OUTCOME_AWARENESS', goal: 'REACH', destination: undefined, promoted: undefined }],
      [{ objective: 'TRAFFIC' }, { objective: 'OUTCOME_TRAFFIC', goal: 'LINK_CLICKS', destination: 'WEBSITE', promoted: undefined }],
      [{ objective: 'ENGAGEMENT' }, { objective: 'OUTCOME_ENGAGEMENT', goal: 'POST_ENGAGEMENT', destination: 'ON_POST', promoted: { page_id: facts.pageId } }],
      [
        { objective: 'LEADS', leadFormId: '998877665544332' },
        { objective: 'OUTCOME_LEADS', goal: 'LEAD_GENERATION', destination: 'ON_AD', promoted: { page_id: facts.pageId } },
      ],
      [
        { objective: 'LEADS', conversion: { pixelId: '123', event: 'LEAD' } },
        { objective: 'OUTCOME_LEADS', goal: 'OFFSITE_CONVERSIONS', destination: 'WEBSITE', promoted: { pixel_id: '123', custom_event_type: 'LEAD' } },
      ],
      [
        { objective: 'SALES', conversion: { pixelId: '123', event: 'PURCHASE' } },
        { objective: 'OUTCOME_SALES', goal: 'OFFSITE_CONVERSIONS', destination: 'WEBSITE', promoted: { pixel_id: '123', custom_event_type: 'PURCHASE' } },
      ],
    ];
    for (const [overrides, expected] of cases) {
      const plan = socialLaunchPlan(input(overrides), facts);
      expect(plan.campaign.objective).toBe(expected.objective);
      expect(plan.adSet.optimization_goal).toBe(expected.goal);
      expect(plan.adSet.billing_event).toBe('IMPRESSIONS');
      expect(plan.adSet.destination_type).toBe(expected.destination);
      expect(plan.adSet.promoted_object === undefined ? undefined : JSON.parse(plan.adSet.promoted_object as string)).toEqual(expected.promoted);
    }
  });

  it('the campaign holds the budget in minor units, PAUSED, with its special categories as JSON strings', () => {
    const plan = socialLaunchPlan(input({ specialAdCategories: ['HOUSING'], specialAdCategoryCountries: ['US'] }), facts);
    expect(plan.campaign).toEqual({
      name: 'Winter Tune-Up 2026',
      objective: 'OUTCOME_TRAFFIC',
      status: 'PAUSED',
      special_ad_categories: '["HOUSING"]',
      special_ad_category_country: '["US"]',
      buying_type: 'AUCTION',
      daily_budget: '5000',
      bid_strategy: 'LOWEST_COST_WITHOUT_CAP',
    });
    expect(plan.adSet.daily_budget).toBeUndefined();
    expect(plan.adSet.status).toBe('ACTIVE');
  });

  it('a lead form ad: the CTA carries the form and the link is the platform’s placeholder', () => {
    const plan = socialLaunchPlan(input({ objective: 'LEADS', leadFormId: '998877665544332' }), facts);
    const story = JSON.parse(creativeParams(plan.ads[0]?.creative as never).object_story_spec as string);
    expect(story.link_data.call_to_action).toEqual({ type: 'LEARN_MORE', value: { lead_gen_form_id: '998877665544332' } });
    expect(story.link_data.link).toBe('http://fb.me/');
  });

  it('a video ad names the thumbnail the job read; the enhancements are opted out per feature', () => {
    const plan = socialLaunchPlan(input({ ads: [{ ...withoutImage(base.ads[0] as { imageId?: string }), videoId: '1209876543210001' }] }), facts);
    const params = creativeParams(plan.ads[0]?.creative as never, 'https://cdn.example/thumb.jpg');
    expect(JSON.parse(params.object_story_spec as string).video_data).toEqual({
      video_id: '1209876543210001',
      image_url: 'https://cdn.example/thumb.jpg',
      message: 'Book a tune-up.',
      title: 'From $89',
      link_description: 'Same-week slots.',
      call_to_action: { type: 'LEARN_MORE', value: { link: 'https://www.example.com/winter' } },
    });
    expect(JSON.parse(params.degrees_of_freedom_spec as string)).toEqual({
      creative_features_spec: {
        text_optimizations: { enroll_status: 'OPT_OUT' },
        enhance_cta: { enroll_status: 'OPT_OUT' },
        image_touchups: { enroll_status: 'OPT_OUT' },
      },
    });
  });

  it('targeting: locations by type, the Advantage flag always sent, off when ages or genders narrow the audience', () => {
    const wide = targetingOf(
      input({
        targeting: {
          locations: [
            { key: 'us', type: 'country' },
            { key: '2420379', type: 'city' },
          ],
        },
      }),
    );
    expect(wide).toEqual({ geo_locations: { countries: ['US'], cities: [{ key: '2420379' }] }, targeting_automation: { advantage_audience: 1 } });
    const narrow = targetingOf(input({ targeting: { locations: [{ key: '3847', type: 'region' }], ageMin: 30, ageMax: 50, genders: ['female'] } }));
    expect(narrow).toEqual({
      geo_locations: { regions: [{ key: '3847' }] },
      age_min: 30,
      age_max: 50,
      genders: [2],
      targeting_automation: { advantage_audience: 0 },
    });
  });

  it('schedule strings in the account’s time zone with its offset', () => {
    expect(inAccountTime('2030-12-02T17:00:00Z', 'America/Los_Angeles')).toBe('2030-12-02T09:00:00-0800');
    expect(inAccountTime('2026-07-01T17:00:00Z', 'Europe/Berlin')).toBe('2026-07-01T19:00:00+0200');
    expect(inAccountTime('2026-07-01T17:00:00Z', 'Asia/Kolkata')).toBe('2026-07-01T22:30:00+0530');
  });

  it('refuses what the platform would: SALES without conversion, ads of one name, a special category with ages', () => {
    expect(socialLaunchRequest.safeParse({ ...base, objective: 'SALES' }).success).toBe(false);
    expect(socialLaunchRequest.safeParse({ ...base, ads: [base.ads[0], base.ads[0]] }).success).toBe(false);
    expect(
      socialLaunchRequest.safeParse({
        ...base,
        specialAdCategories: ['EMPLOYMENT'],
        specialAdCategoryCountries: ['US'],
        targeting: { locations: [{ key: 'US', type: 'country' }], ageMin: 30 },
      }).success,
    ).toBe(false);
    expect(socialLaunchRequest.safeParse({ ...base, ads: [{ ...base.ads[0], link: 'http://www.example.com' }] }).success).toBe(false);
  });
});

describe('the platform’s refusals in the launch’s words', () => {
  const refusal = (code: number, subcode?: number, userTitle?: string) =>
    new PlatformRejected(
      'social',
      'refused',
      { platformCode: code, ...(subcode ? { platformSubcode: subcode } : {}), fbtraceId: 'Ax' },
      { userTitle, userMessage: 'msg' },
    );
  it.each([
    [100, 1885272, undefined, 'BUDGET_TOO_LOW'],
    [100, undefined, 'Budget Is Too Low', 'BUDGET_TOO_LOW'],
    [100, 2490408, undefined, 'INVALID_OPTIMIZATION_FOR_OBJECTIVE'],
    [100, 1815430, undefined, 'INVALID_OPTIMIZATION_FOR_OBJECTIVE'],
    [100, 3858082, undefined, 'CREATIVE_OPTION_REQUIRED'],
    [100, 3858504, undefined, 'CREATIVE_OPTION_REQUIRED'],
    [100, 1487202, undefined, 'PAGE_NOT_AUTHORIZED'],
    [100, 1359188, undefined, 'ACCOUNT_NOT_ELIGIBLE'],
    [368, undefined, undefined, 'ACCOUNT_NOT_ELIGIBLE'],
    [100, 1885154, undefined, 'PLATFORM_REJECTED'],
    [100, 2641, undefined, 'PLATFORM_REJECTED'],
  ])('%s / %s (%s) → %s', (code, subcode, title, expected) => {
    const mapped = launchRefusalOf(refusal(code, subcode, title), 'ad set', ['ads_management']) as { code: string; extra: Record<string, unknown> };
    expect(mapped.code).toBe(expected);
    expect(mapped.extra.platformDetail).toMatchObject({ code, userMessage: 'msg', traceId: 'Ax' });
  });

  it('a permission refusal: SCOPE_MISSING naming it unless the connection is known to hold it', () => {
    expect((launchRefusalOf(refusal(200), 'creative:0', undefined) as { code: string; extra: { scope: string } }).extra.scope).toBe('pages_manage_ads');
    expect((launchRefusalOf(refusal(200), 'creative:0', ['pages_manage_ads']) as { code: string }).code).toBe('PAGE_NOT_AUTHORIZED');
    expect((launchRefusalOf(refusal(10), 'campaign', ['ads_management']) as { code: string }).code).toBe('ACCOUNT_NOT_ELIGIBLE');
  });
});
