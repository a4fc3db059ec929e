import type { SocialLaunchInput, SocialLaunchPlan } from '../../schemas/social-launch.ts';
import type { GraphParams } from './client.ts';

/**
 * A launch request in the platform's words (docs/platforms.md, "Social: launching a campaign"): the
 * params of each create, stored with the job so that every run sends exactly the same. Pure: the
 * ids of the parents are stitched in by the job as it makes them.
 */
export type { SocialLaunchPlan };

/** Our objective → the platform's objective, optimization goal, destination and what the promoted object holds. */
const OBJECTIVE_TABLE = {
  AWARENESS: { objective: 'OUTCOME_AWARENESS', goal: 'REACH', destination: undefined },
  TRAFFIC: { objective: 'OUTCOME_TRAFFIC', goal: 'LINK_CLICKS', destination: 'WEBSITE' },
  ENGAGEMENT: { objective: 'OUTCOME_ENGAGEMENT', goal: 'POST_ENGAGEMENT', destination: 'ON_POST' },
  LEADS: { objective: 'OUTCOME_LEADS', goal: 'LEAD_GENERATION', destination: 'ON_AD' },
  SALES: { objective: 'OUTCOME_SALES', goal: 'OFFSITE_CONVERSIONS', destination: 'WEBSITE' },
} as const;

/** The creative options turned off, so an ad shows the user's text and image as given. */
export const ENHANCEMENTS_OFF = JSON.stringify({
  creative_features_spec: {
    text_optimizations: { enroll_status: 'OPT_OUT' },
    enhance_cta: { enroll_status: 'OPT_OUT' },
    image_touchups: { enroll_status: 'OPT_OUT' },
  },
});

/** What a lead ad's link is when the form, not a site, is where it goes. */
const LEAD_FORM_LINK = 'http://fb.me/';

/** An instant as the platform schedules it: the account's local time with its offset, `YYYY-MM-DDThh:mm:ss-0800`. */
export function inAccountTime(iso: string, timeZone: string): string {
  const at = new Date(iso);
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      timeZoneName: 'longOffset',
    })
      .formatToParts(at)
      .map((part) => [part.type, part.value]),
  );
  const offset = /GMT([+-]\d{2}):?(\d{2})/.exec(parts.timeZoneName ?? '');
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}${offset ? `${offset[1]}${offset[2]}` : '+0000'}`;
}

const GEO_KEY = { region: 'regions', city: 'cities', zip: 'zips', subcity: 'subcities', neighborhood: 'neighborhoods' } as const;

/** The ad set's `targeting` (docs/platforms.md, "Social: targeting"). */
export function targetingOf(input: SocialLaunchInput): Record<string, unknown> {
  const { locations, ageMin, ageMax, genders, customAudienceIds, advantageAudience } = input.targeting;
  const geo: Record<string, unknown[]> = {};
  for (const location of locations) {
    const key = location.type === 'country' ? 'countries' : GEO_KEY[location.type];
    geo[key] = [...(geo[key] ?? []), location.type === 'country' ? location.key.toUpperCase() : { key: location.key }];
  }
  // the Advantage audience takes ages and genders as suggestions and wants 65+: off when the caller narrows them
  const narrowed = genders !== undefined || (ageMax !== undefined && ageMax < 65) || (ageMin !== undefined && ageMin > 25);
  const advantage = advantageAudience ?? !narrowed;
  return {
    geo_locations: geo,
    ...(ageMin !== undefined ? { age_min: ageMin } : {}),
    ...(ageMax !== undefined ? { age_max: ageMax } : {}),
    ...(genders ? { genders: genders.map((gender) => (gender === 'male' ? 1 : 2)) } : {}),
    ...(customAudienceIds?.length ? { custom_audiences: customAudienceIds.map((id) => ({ id })) } : {}),
    targeting_automation: { advantage_audience: advantage && !narrowed ? 1 : 0 },
  };
}

export function socialLaunchPlan(
  input: SocialLaunchInput,
  facts: { adAccountId: string; pageId: string; timeZone: string; budgetUnits: bigint },
): SocialLaunchPlan {
  const row = OBJECTIVE_TABLE[input.objective];
  const salesOrLeadSite = input.conversion !== undefined;
  const goal = salesOrLeadSite ? 'OFFSITE_CONVERSIONS' : row.goal;
  const destination = salesOrLeadSite ? 'WEBSITE' : row.destination;
  const promoted = input.conversion
    ? { pixel_id: input.conversion.pixelId, custom_event_type: input.conversion.event }
    : input.objective === 'ENGAGEMENT' || input.objective === 'LEADS'
      ? { page_id: facts.pageId }
      : undefined;
  const campaign: GraphParams = {
    name: input.name,
    objective: row.objective,
    status: 'PAUSED',
    special_ad_categories: JSON.stringify(input.specialAdCategories),
    ...(input.specialAdCategories.length > 0 ? { special_ad_category_country: JSON.stringify(input.specialAdCategoryCountries) } : {}),
    buying_type: 'AUCTION',
    daily_budget: facts.budgetUnits.toString(),
    bid_strategy: 'LOWEST_COST_WITHOUT_CAP',
  };
  const adSet: GraphParams = {
    name: `${input.name} · ad set`,
    status: 'ACTIVE',
    optimization_goal: goal,
    billing_event: 'IMPRESSIONS',
    ...(destination ? { destination_type: destination } : {}),
    ...(promoted ? { promoted_object: JSON.stringify(promoted) } : {}),
    ...(input.startTime ? { start_time: inAccountTime(input.startTime, facts.timeZone) } : {}),
    ...(input.endTime ? { end_time: inAccountTime(input.endTime, facts.timeZone) } : {}),
    targeting: JSON.stringify(targetingOf(input)),
  };
  const ads = input.ads.map((ad) => {
    const leadForm = input.objective === 'LEADS' && input.leadFormId !== undefined;
    const callToAction = leadForm
      ? { type: ad.callToAction, value: { lead_gen_form_id: input.leadFormId } }
      : { type: ad.callToAction, value: { link: ad.link } };
    const story = ad.imageId
      ? {
          link_data: {
            image_hash: ad.imageId,
            link: leadForm ? LEAD_FORM_LINK : ad.link,
            message: ad.primaryText,
            name: ad.headline,
            ...(ad.description ? { description: ad.description } : {}),
            call_to_action: callToAction,
          },
        }
      : {
          video_data: {
            video_id: ad.videoId,
            message: ad.primaryText,
            title: ad.headline,
            ...(ad.description ? { link_description: ad.description } : {}),
            call_to_action: callToAction,
          },
        };
    return {
      creative: { name: ad.name, story: { page_id: facts.pageId, ...(input.instagramUserId ? { instagram_user_id: input.instagramUserId } : {}), ...story } },
      ad: { name: ad.name, status: 'ACTIVE' },
      media: ad.imageId ? { imageHash: ad.imageId } : { videoId: ad.videoId as string },
    };
  });
  return { adAccountId: facts.adAccountId, campaign, adSet, ads };
}

/** A creative's params: its story (with a video's thumbnail, once read) and the enhancements turned off. */
export function creativeParams(creative: SocialLaunchPlan['ads'][number]['creative'], thumbnailUrl?: string): GraphParams {
  const story = creative.story as { video_data?: Record<string, unknown> };
  const withThumbnail = story.video_data && thumbnailUrl ? { ...story, video_data: { ...story.video_data, image_url: thumbnailUrl } } : story;
  return { name: creative.name, object_story_spec: JSON.stringify(withThumbnail), degrees_of_freedom_spec: ENHANCEMENTS_OFF };
}

/** The creates a social launch makes, in order (get_job shows them): campaign, ad set, then a creative and an ad per ad. */
export const socialLaunchSteps = (plan: SocialLaunchPlan): string[] => [
  'campaign',
  'adset',
  ...plan.ads.flatMap((_ad, index) => [`creative:${index}`, `ad:${index}`]),
];
