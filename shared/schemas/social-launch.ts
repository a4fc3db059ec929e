import * as z from 'zod';
import { amountSchema } from './campaign-control.ts';
import { httpsUrlSchema, instantSchema, numericIdSchema, shapeError, userIdSchema } from './common.ts';
import { jobStatusSchema } from './uploads.ts';

/**
 * create_campaign on the social platform (docs/decisions.md, "Launching a whole campaign"): the
 * campaign, its ad set and one creative and ad per entry of `ads`, made by a job, all or nothing.
 */
export const SOCIAL_OBJECTIVES = ['AWARENESS', 'TRAFFIC', 'ENGAGEMENT', 'LEADS', 'SALES'] as const;
export const SPECIAL_AD_CATEGORIES = ['HOUSING', 'EMPLOYMENT', 'FINANCIAL_PRODUCTS_SERVICES', 'ISSUES_ELECTIONS_POLITICS'] as const;
export const CONVERSION_EVENTS = ['LEAD', 'PURCHASE', 'COMPLETE_REGISTRATION', 'ADD_TO_CART', 'CONTACT', 'SUBSCRIBE'] as const;
export const CALLS_TO_ACTION = [
  'LEARN_MORE',
  'SHOP_NOW',
  'SIGN_UP',
  'SUBSCRIBE',
  'CONTACT_US',
  'APPLY_NOW',
  'BOOK_TRAVEL',
  'DOWNLOAD',
  'GET_OFFER',
  'GET_QUOTE',
  'ORDER_NOW',
] as const;
export const LOCATION_TYPES = ['country', 'region', 'city', 'zip', 'subcity', 'neighborhood'] as const;

/** The platform's hard limits on a creative's texts (what it shows is shorter: see docs/platforms.md). */
const PRIMARY_TEXT_MAX = 2200;
const HEADLINE_MAX = 255;
const DESCRIPTION_MAX = 255;
const NAME_MAX = 400;

const instant = instantSchema;
const httpsLink = httpsUrlSchema(1024);

const socialAdFields = {
  name: z.string().trim().min(1).max(NAME_MAX),
  primaryText: z.string().trim().min(1).max(PRIMARY_TEXT_MAX),
  headline: z.string().trim().min(1).max(HEADLINE_MAX),
  description: z.string().trim().min(1).max(DESCRIPTION_MAX).optional(),
  link: httpsLink,
  callToAction: z.enum(CALLS_TO_ACTION),
};

/** the other field of an exactly-one pair: never sent (a typed client's `never`) */
const notBoth = z.never().optional();

/** An ad with exactly one of imageId and videoId: the document says so (oneOf), and so do a typed client's types. */
const socialAd = z
  .xor(
    [
      z.strictObject({
        ...socialAdFields,
        videoId: notBoth,
        imageId: z
          .string()
          .regex(
            /^(?:\d+:)?[0-9a-f]{32}$/,
            'must be an image hash (32 hex characters) or an image id (<ad account id>:<hash>) from upload_ad_media or get_ad_account_media',
          )
          .describe('An image of the user’s ad account: its hash, or its id as get_ad_account_media lists it (`<ad account id>:<hash>`).'),
      }),
      z.strictObject({
        ...socialAdFields,
        imageId: notBoth,
        videoId: numericIdSchema('videoId').check(z.describe('A video of the ad account that the platform has processed (upload_ad_media).')),
      }),
    ],
    { error: shapeError('send exactly one of imageId and videoId') },
  )
  .transform((ad): SocialAdInput => ad);

const socialAdBase = z.strictObject(socialAdFields);
type SocialAdInput = z.output<typeof socialAdBase> & { imageId?: string; videoId?: string };

const age = z.number().int().min(18, 'must be 18 to 65').max(65, 'must be 18 to 65 (65 means 65 and older)');

export const socialLaunchRequest = z
  .strictObject({
    userId: userIdSchema,
    name: z.string().trim().min(1).max(NAME_MAX).describe('The campaign’s name (the ad set is named after it).'),
    objective: z.enum(SOCIAL_OBJECTIVES),
    specialAdCategories: z.array(z.enum(SPECIAL_AD_CATEGORIES)).max(4).default([]),
    specialAdCategoryCountries: z
      .array(z.string().regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 country code'))
      .max(250)
      .optional()
      .describe('Required with any special ad category: where those ads run.'),
    dailyBudget: amountSchema.describe('The campaign’s daily budget in major units of the ad account’s currency, as edit_campaign takes it.'),
    startTime: z.optional(instant),
    endTime: z.optional(instant),
    pageId: z.optional(numericIdSchema('pageId')).check(z.describe('The Page the ads run as; default: the Page the user’s connection chose.')),
    instagramUserId: z.optional(numericIdSchema('instagramUserId')).check(z.describe('Also run on Instagram as this account (the Page’s linked one).')),
    conversion: z.strictObject({ pixelId: numericIdSchema('pixelId'), event: z.enum(CONVERSION_EVENTS) }).optional(),
    leadFormId: z.optional(numericIdSchema('leadFormId')).check(z.describe('LEADS with an instant form: the Page’s lead form (create_lead_form).')),
    targeting: z.strictObject({
      locations: z
        .array(z.strictObject({ key: z.string().trim().min(1).max(64), type: z.enum(LOCATION_TYPES) }))
        .min(1)
        .max(200)
        .describe('What search_targeting_locations answers (`key`, `type`); a country’s key is its ISO code.'),
      ageMin: age.optional(),
      ageMax: age.optional(),
      genders: z
        .array(z.enum(['male', 'female']))
        .min(1)
        .max(2)
        .optional(),
      customAudienceIds: z.array(numericIdSchema('customAudienceIds')).max(100).optional(),
      advantageAudience: z.boolean().optional().describe('The platform’s Advantage audience (default true unless ages or genders are given).'),
    }),
    ads: z.array(socialAd).min(1).max(10),
    activate: z.boolean().default(false).describe('Turn the campaign on once everything is made (it is made PAUSED).'),
    validateOnly: z.boolean().default(false).describe('Check with the platform and answer {valid, issues}; nothing is made, no job.'),
  })
  .superRefine((input, ctx) => {
    const issue = (path: Array<string | number>, message: string) => ctx.addIssue({ code: 'custom', path, message });
    if (input.specialAdCategories.length > 0 && !input.specialAdCategoryCountries?.length)
      issue(['specialAdCategoryCountries'], 'is required with a special ad category');
    if (input.startTime && input.endTime && Date.parse(input.endTime) <= Date.parse(input.startTime)) issue(['endTime'], 'must be after startTime');
    const { ageMin = 18, ageMax = 65, genders } = input.targeting;
    if (ageMin > ageMax) issue(['targeting', 'ageMin'], 'must not be above ageMax');
    if (input.specialAdCategories.length > 0) {
      if (genders) issue(['targeting', 'genders'], 'cannot be chosen for ads in a special ad category');
      if (ageMin !== 18 || ageMax !== 65) issue(['targeting', 'ageMin'], 'is fixed at 18 to 65 for ads in a special ad category');
      if (input.targeting.locations.some((location) => location.type === 'zip'))
        issue(['targeting', 'locations'], 'cannot hold ZIP codes for ads in a special ad category');
    }
    if (input.objective === 'SALES' && !input.conversion) issue(['conversion'], 'is required for SALES (the pixel and the event it optimizes for)');
    if (input.objective === 'LEADS' && !input.conversion && !input.leadFormId) issue(['leadFormId'], 'LEADS needs a lead form (leadFormId) or a conversion');
    if (input.objective === 'LEADS' && input.conversion && input.leadFormId) issue(['leadFormId'], 'send either leadFormId or conversion for LEADS, not both');
    if (input.leadFormId && input.objective !== 'LEADS') issue(['leadFormId'], 'is only for LEADS');
    const names = new Set<string>();
    input.ads.forEach((ad, index) => {
      if (names.has(ad.name)) issue(['ads', index, 'name'], 'must differ from the other ads’ names (a read-back finds an ad by its name)');
      names.add(ad.name);
    });
  });
export type SocialLaunchInput = z.output<typeof socialLaunchRequest>;

export const launchIssueSchema = z.object({
  field: z.string().describe('The request field the issue is about.'),
  code: z
    .string()
    .describe(
      'BUDGET_TOO_LOW, INVALID_AMOUNT (more decimals than the currency, or above the largest budget), MEDIA_NOT_FOUND, MEDIA_NOT_READY, MEDIA_PROCESSING_FAILED, ACCOUNT_NOT_ELIGIBLE, or the code of the platform’s own refusal (the launch error table).',
    ),
  message: z.string(),
  minimum: z
    .object({ amount: z.string(), currency: z.string() })
    .optional()
    .describe('BUDGET_TOO_LOW: the smallest daily budget the ad account takes, in its currency.'),
});

export const socialLaunchResult = z.union([
  z.object({ jobId: z.string(), status: jobStatusSchema.describe('`queued`; a replay with the same Idempotency-Key answers the same job.') }),
  z.object({
    valid: z.boolean(),
    issues: z.array(launchIssueSchema).describe('What the platform (or our check of its rules) refused; empty when valid.'),
  }),
]);

type GraphParams = Record<string, unknown>;

/**
 * A launch in the social platform's words (shared/platforms/social/launch-plan.ts makes it): the
 * params of each create, stored with the job so that every run sends exactly the same.
 */
export interface SocialLaunchPlan {
  adAccountId: string;
  campaign: GraphParams;
  /** without `campaign_id` */
  adSet: GraphParams;
  /**
   * One per ad: its creative's name and object story (a video's thumbnail is added by the job, which
   * reads it), and the ad's params (without `adset_id` and `creative`).
   */
  ads: Array<{ creative: { name: string; story: Record<string, unknown> }; ad: GraphParams; media: { imageHash?: string; videoId?: string } }>;
}
