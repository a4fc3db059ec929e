import * as z from 'zod';
import { amountSchema } from './campaign-control.ts';
import { httpsUrlSchema, instantSchema, numericIdSchema, shapeError, userIdSchema } from './common.ts';
import { launchIssueSchema } from './social-launch.ts';
import { jobStatusSchema } from './uploads.ts';

/**
 * create_campaign on the professional network (docs/decisions.md, "Launching a whole campaign
 * (professional)"): a campaign group, its campaign and one sponsored-content creative per entry of
 * `ads`, all DRAFT until activation, made by a job, all or nothing.
 */
export const PROFESSIONAL_OBJECTIVES = ['BRAND_AWARENESS', 'WEBSITE_VISITS', 'ENGAGEMENT', 'LEAD_GENERATION', 'VIDEO_VIEWS'] as const;
export type ProfessionalObjective = (typeof PROFESSIONAL_OBJECTIVES)[number];
export const PROFESSIONAL_CALLS_TO_ACTION = [
  'APPLY',
  'DOWNLOAD',
  'VIEW_QUOTE',
  'LEARN_MORE',
  'SIGN_UP',
  'SUBSCRIBE',
  'REGISTER',
  'REQUEST_DEMO',
  'JOIN',
  'ATTEND',
  'UNLOCK_FULL_DOCUMENT',
] as const;
export const COST_TYPES = ['CPM', 'CPC', 'CPV'] as const;
/** The cost types each objective's automatic bidding takes (docs/platforms.md, "Professional: launching a campaign"). */
export const COST_TYPES_BY_OBJECTIVE: Record<ProfessionalObjective, ReadonlyArray<(typeof COST_TYPES)[number]>> = {
  BRAND_AWARENESS: ['CPM'],
  WEBSITE_VISITS: ['CPM'],
  ENGAGEMENT: ['CPM'],
  LEAD_GENERATION: ['CPM'],
  VIDEO_VIEWS: ['CPM', 'CPV'],
};
/** The locales the platform's ads are written in. */
export const PROFESSIONAL_LOCALES = [
  'ar_AE',
  'cs_CZ',
  'da_DK',
  'de_DE',
  'en_US',
  'es_ES',
  'fr_FR',
  'hi_IN',
  'in_ID',
  'it_IT',
  'ja_JP',
  'ko_KR',
  'ms_MY',
  'nl_NL',
  'no_NO',
  'pl_PL',
  'pt_BR',
  'ro_RO',
  'ru_RU',
  'sv_SE',
  'th_TH',
  'tl_PH',
  'tr_TR',
  'zh_CN',
  'zh_TW',
] as const;

/** The platform's limits (docs/platforms.md, "Professional: launching a campaign"). */
const NAME_MAX = 100;
const COMMENTARY_MAX = 600;
const HEADLINE_MAX = 200;

const instant = instantSchema;
const httpsLink = httpsUrlSchema(2000);
const urnList = (pattern: RegExp, example: string) =>
  z
    .array(z.string().regex(pattern, `must be a URN such as ${example}`))
    .min(1)
    .max(200);

const professionalAdFields = {
  name: z.string().trim().min(1).max(NAME_MAX),
  commentary: z.string().trim().min(1).max(COMMENTARY_MAX).describe('The post’s introductory text (the platform’s ad specs: at most 600 characters).'),
  headline: z.string().trim().min(1).max(HEADLINE_MAX),
  link: z.optional(httpsLink).check(z.describe('The landing page; required except for LEAD_GENERATION (the lead form is the destination).')),
  callToAction: z.enum(PROFESSIONAL_CALLS_TO_ACTION),
};

/** the other field of an exactly-one pair: never sent (a typed client's `never`) */
const notBoth = z.never().optional();

/** An ad with exactly one of imageId and videoId: the document says so (oneOf), and so do a typed client's types. */
const professionalAd = z
  .xor(
    [
      z.strictObject({
        ...professionalAdFields,
        videoId: notBoth,
        imageId: z.string().regex(/^urn:li:image:[A-Za-z0-9_-]+$/, 'must be an image URN (urn:li:image:…) from upload_ad_media'),
      }),
      z.strictObject({
        ...professionalAdFields,
        imageId: notBoth,
        videoId: z.string().regex(/^urn:li:video:[A-Za-z0-9_-]+$/, 'must be a video URN (urn:li:video:…) from upload_ad_media'),
      }),
    ],
    { error: shapeError('send exactly one of imageId and videoId') },
  )
  .transform((ad): ProfessionalAdInput => ad);

const professionalAdBase = z.strictObject(professionalAdFields);
type ProfessionalAdInput = z.output<typeof professionalAdBase> & { imageId?: string; videoId?: string };

export const professionalLaunchRequest = z
  .strictObject({
    userId: userIdSchema,
    name: z.string().trim().min(1).max(NAME_MAX).describe('The campaign’s name (its campaign group has the same).'),
    objective: z.enum(PROFESSIONAL_OBJECTIVES),
    costType: z
      .enum(COST_TYPES)
      .default('CPM')
      .describe('How the automatic bidding is charged: CPM for every objective; VIDEO_VIEWS also takes CPV. No manual bid is taken.'),
    dailyBudget: amountSchema.describe('The campaign’s daily budget in major units of the ad account’s currency, as edit_campaign takes it.'),
    startTime: z.optional(instant).check(z.describe('When it may run; default: when it is made. Not in the past.')),
    endTime: z.optional(instant),
    organizationId: z
      .optional(numericIdSchema('organizationId'))
      .check(z.describe('The organization the posts are by (it must own the media); default: the one the ad account advertises for.')),
    leadFormId: z
      .optional(numericIdSchema('leadFormId'))
      .check(z.describe('LEAD_GENERATION: the platform’s lead form its ads open (required then, refused otherwise).')),
    locale: z.enum(PROFESSIONAL_LOCALES).default('en_US').describe('The language and country the ads are written in.'),
    targeting: z.strictObject({
      locations: urnList(/^urn:li:geo:\d+$/, 'urn:li:geo:103644278').describe('Where the members are: geo URNs (search_targeting_locations).'),
      languages: z.array(z.enum(PROFESSIONAL_LOCALES)).min(1).max(25).optional().describe('The members’ interface languages; default: the ads’ locale.'),
      audienceIds: urnList(/^urn:li:adSegment:\d+$/, 'urn:li:adSegment:10615')
        .optional()
        .describe('Matched audiences (a professional CSV audience’s segment).'),
      industries: urnList(/^urn:li:industry:\d+$/, 'urn:li:industry:4').optional(),
      seniorities: urnList(/^urn:li:seniority:\d+$/, 'urn:li:seniority:6').optional(),
      jobFunctions: urnList(/^urn:li:function:\d+$/, 'urn:li:function:8').optional(),
    }),
    politicalIntent: z
      .enum(['POLITICAL', 'NOT_POLITICAL'])
      .default('NOT_POLITICAL')
      .describe('The EU political-ads declaration the platform requires on every campaign.'),
    ads: z.array(professionalAd).min(1).max(15),
    activate: z.boolean().default(false).describe('Turn the campaign on once everything is made: group, then creatives, then campaign (all are made DRAFT).'),
    validateOnly: z
      .boolean()
      .default(false)
      .describe('Our checks and the account’s (the platform has no dry run): answers {valid, issues, checkedBy}; nothing is made, no job.'),
  })
  .superRefine((input, ctx) => {
    const issue = (path: Array<string | number>, message: string) => ctx.addIssue({ code: 'custom', path, message });
    if (input.startTime && input.endTime && Date.parse(input.endTime) <= Date.parse(input.startTime)) issue(['endTime'], 'must be after startTime');
    if (!COST_TYPES_BY_OBJECTIVE[input.objective].includes(input.costType))
      issue(['costType'], `must be ${COST_TYPES_BY_OBJECTIVE[input.objective].join(' or ')} for ${input.objective}`);
    if (input.objective === 'LEAD_GENERATION' && !input.leadFormId) issue(['leadFormId'], 'is required for LEAD_GENERATION (the lead form its ads open)');
    if (input.leadFormId && input.objective !== 'LEAD_GENERATION') issue(['leadFormId'], 'is only for LEAD_GENERATION');
    const videos = input.ads.filter((ad) => ad.videoId).length;
    if (videos > 0 && videos < input.ads.length) issue(['ads'], 'must be all images or all videos (a campaign has one format, and its creatives match it)');
    if (input.objective === 'VIDEO_VIEWS' && videos < input.ads.length) issue(['ads'], 'VIDEO_VIEWS ads must all be videos');
    const names = new Set<string>();
    input.ads.forEach((ad, index) => {
      if (input.objective !== 'LEAD_GENERATION' && !ad.link) issue(['ads', index, 'link'], `is required for ${input.objective}`);
      if (names.has(ad.name)) issue(['ads', index, 'name'], 'must differ from the other ads’ names (a read-back finds a creative by its name)');
      names.add(ad.name);
    });
  });
export type ProfessionalLaunchInput = z.output<typeof professionalLaunchRequest>;

export const professionalLaunchResult = z.union([
  z.object({ jobId: z.string(), status: jobStatusSchema.describe('`queued`; a replay with the same Idempotency-Key answers the same job.') }),
  z.object({
    valid: z.boolean(),
    issues: z.array(launchIssueSchema).describe('What our checks of the platform’s rules and the account refused; empty when valid.'),
    checkedBy: z.literal('service').describe('The platform has no dry run: these are our checks, not the platform’s.'),
  }),
]);

type RestliBody = Record<string, unknown>;

/**
 * A professional launch in the platform's words (shared/platforms/professional/launch-plan.ts makes
 * it): the bodies of each create without the parents' URNs and the schedule, which the job adds.
 */
export interface ProfessionalLaunchPlan {
  adAccountId: string;
  /** without `runSchedule` */
  group: RestliBody;
  /** without `campaignGroup` and `runSchedule` */
  campaign: RestliBody;
  /** one per ad: its name, its image or video URN, and the createInline body without `campaign` */
  creatives: Array<{ name: string; media: string; creative: RestliBody }>;
  /** media the request found still processing: the job waits for each before its creative */
  mediaToWaitFor?: string[];
  /** the schedule asked for (epoch ms); no start: when the object is made */
  startMs?: number;
  endMs?: number;
}
