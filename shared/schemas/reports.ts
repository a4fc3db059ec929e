import * as z from 'zod';
import { PLATFORMS, type Platform } from '../core/errors.ts';
import { controlCampaignIdSchema } from './campaign-control.ts';
import { dateSchema, paginationSchema, userIdSchema } from './common.ts';
import { checkRange } from './performance.ts';

/**
 * Reports that break results down (docs/reports.md): one level, at most one breakdown, days or the
 * whole range, in the metric words of "Performance". What each platform can break down, at which
 * level, is stated here once: validation, the document and the adapters read this table.
 */
export const REPORT_LEVELS = ['campaign', 'ad_set', 'ad'] as const;
export type ReportLevel = (typeof REPORT_LEVELS)[number];
export const BREAKDOWNS = ['age', 'gender', 'country', 'region', 'device', 'placement', 'job_function', 'seniority', 'industry', 'company_size'] as const;
export type Breakdown = (typeof BREAKDOWNS)[number];
export const ATTRIBUTION_WINDOWS = ['1d_click', '7d_click', '28d_click', '1d_view'] as const;
export const MAX_REPORT_CAMPAIGNS = 100;
export const REPORT_PAGE_ROWS = 5_000;

/** Per platform: its levels, and each breakdown with the levels it is offered at. */
export const REPORT_SUPPORT: Record<Platform, { levels: readonly ReportLevel[]; breakdowns: Partial<Record<Breakdown, readonly ReportLevel[]>> }> = {
  social: {
    levels: ['campaign', 'ad_set', 'ad'],
    breakdowns: {
      age: ['campaign', 'ad_set', 'ad'],
      gender: ['campaign', 'ad_set', 'ad'],
      country: ['campaign', 'ad_set', 'ad'],
      region: ['campaign', 'ad_set', 'ad'],
      device: ['campaign', 'ad_set', 'ad'],
      placement: ['campaign', 'ad_set', 'ad'],
    },
  },
  searchads: {
    levels: ['campaign', 'ad_set', 'ad'],
    // age, gender and location come from views kept per ad group: not at ad level
    breakdowns: {
      age: ['campaign', 'ad_set'],
      gender: ['campaign', 'ad_set'],
      country: ['campaign', 'ad_set'],
      region: ['campaign', 'ad_set'],
      device: ['campaign', 'ad_set', 'ad'],
      placement: ['campaign', 'ad_set', 'ad'],
    },
  },
  professional: {
    // the network has no ad set: campaigns hold creatives
    levels: ['campaign', 'ad'],
    breakdowns: {
      country: ['campaign', 'ad'],
      region: ['campaign', 'ad'],
      job_function: ['campaign', 'ad'],
      seniority: ['campaign', 'ad'],
      industry: ['campaign', 'ad'],
      company_size: ['campaign', 'ad'],
    },
  },
};

/** The breakdowns a platform offers at a level. */
export const breakdownsAt = (platform: Platform, level: ReportLevel): Breakdown[] =>
  (Object.entries(REPORT_SUPPORT[platform].breakdowns) as Array<[Breakdown, readonly ReportLevel[]]>)
    .filter(([, levels]) => levels.includes(level))
    .map(([breakdown]) => breakdown);

export const reportQueryFields = {
  userId: userIdSchema,
  platform: z.enum(PLATFORMS),
  level: z.enum(REPORT_LEVELS).describe('campaign, ad_set (search ads: ad group; not on the professional network) or ad (professional: creative).'),
  startDate: dateSchema.check(z.describe('First day, YYYY-MM-DD, in the ad account’s time zone.')),
  endDate: dateSchema.check(z.describe('Last day (included); at most 366 days in all.')),
  campaignIds: z.array(controlCampaignIdSchema).min(1).max(MAX_REPORT_CAMPAIGNS).optional().describe('At most 100; absent: every campaign of the account.'),
  breakdown: z.enum(BREAKDOWNS).optional().describe('One per report; each platform offers its own set (docs/reports.md).'),
  timeIncrement: z.enum(['day', 'total']).default('day').describe('day: one row per day with delivery; total: one row for the range.'),
  attributionWindow: z.enum(ATTRIBUTION_WINDOWS).optional().describe('Social only: the window conversions are counted in.'),
};

export const getReportRequest = z
  .strictObject({ ...reportQueryFields, pagination: paginationSchema })
  .superRefine((input, context) => checkRange(input, context));
export type ReportQuery = z.output<typeof getReportRequest>;

const money = z.string().describe('Major units of the account’s currency.');
export const reportRowSchema = z.object({
  date: z.string().optional().describe('YYYY-MM-DD; absent with timeIncrement total.'),
  campaignId: z.string(),
  adSetId: z.string().optional(),
  adId: z.string().optional(),
  name: z.string().describe('The name of the row’s campaign, ad set or ad.'),
  dimension: z.object({ id: z.string(), name: z.string() }).optional().describe('The breakdown’s value: the platform’s own id and its name.'),
  impressions: z.string(),
  clicks: z.string(),
  spend: money,
  ctr: z.string().optional(),
  cpc: money.optional(),
  cpm: money.optional(),
  conversions: z.string(),
  conversionValue: money,
  costPerConversion: money.optional(),
  reach: z.string().optional(),
  leads: z.string().optional(),
  outcomes: z.record(z.string(), z.number()).optional().describe('Campaign level: the outcomes reported through the conversions relay, per stage.'),
  costPerOutcome: z.record(z.string(), z.string()).optional().describe('Campaign level: spend / outcomes per stage (the cost per qualified lead).'),
});
export type ReportRow = z.infer<typeof reportRowSchema>;

export const reportResultSchema = z.object({
  currency: z.string(),
  level: z.enum(REPORT_LEVELS),
  breakdown: z.enum(BREAKDOWNS).optional(),
  rows: z.array(reportRowSchema).describe('At most 5,000 a page; a day or value without delivery has no row.'),
  notes: z.array(z.string()).describe('What the platform cannot do or only estimates, for this report.'),
  paging: z.object({ next: z.string() }).optional(),
});
export type ReportResult = z.infer<typeof reportResultSchema>;

export const exportReportRequest = z
  .strictObject({
    ...reportQueryFields,
    format: z.enum(['csv', 'jsonl']).default('csv').describe('csv (a header row, one row a line) or jsonl (one JSON row a line); gzipped either way.'),
  })
  .superRefine((input, context) => checkRange(input, context));
export type ExportQuery = z.output<typeof exportReportRequest>;

export const reportFileSchema = z.object({
  url: z.string().describe('A presigned GET of the gzipped file, good for 24 hours.'),
  format: z.enum(['csv', 'jsonl']),
  rows: z.number(),
  bytes: z.number().describe('The gzipped file’s size.'),
  expiresAt: z.string().describe('When the link stops working; the file itself is deleted 7 days after it was made.'),
  notes: z.array(z.string()),
});
export type ReportFile = z.infer<typeof reportFileSchema>;
