import * as z from 'zod';
import { controlCampaignIdSchema } from './campaign-control.ts';
import { dateSchema, userIdSchema, type Output } from './common.ts';

/** The metric words of a performance row, the same on every platform (and in rules). */
export const PERFORMANCE_METRICS = ['impressions', 'clicks', 'spend', 'ctr', 'cpc', 'cpm', 'conversions', 'conversionValue', 'costPerConversion'] as const;
export type PerformanceMetric = (typeof PERFORMANCE_METRICS)[number];

/** Daily performance of one campaign, in one vocabulary on every platform (docs/operations.md, "Performance"). */
export const MAX_RANGE_DAYS = 366;
const DAY_MS = 86_400_000;

export const rangeFields = {
  userId: userIdSchema,
  campaignId: controlCampaignIdSchema,
  startDate: dateSchema.check(z.describe('First day, YYYY-MM-DD, in the ad account’s time zone.')),
  endDate: dateSchema.check(z.describe('Last day (included), YYYY-MM-DD.')),
  clientCostAdjustment: z
    .strictObject({
      percentage: z.number().min(-100).max(1000).describe('Every cost figure is multiplied by 1 + percentage/100; the conversion value is not.'),
    })
    .optional(),
};

export function checkRange(input: { startDate: string; endDate: string }, ctx: z.RefinementCtx): void {
  // A date already reported as invalid says nothing about the range.
  if (!dateSchema.safeParse(input.startDate).success || !dateSchema.safeParse(input.endDate).success) return;
  if (input.startDate > input.endDate) ctx.addIssue({ code: 'custom', path: ['endDate'], message: 'must not be before startDate' });
  else if ((Date.parse(input.endDate) - Date.parse(input.startDate)) / DAY_MS + 1 > MAX_RANGE_DAYS)
    ctx.addIssue({ code: 'custom', path: ['endDate'], message: `the range may cover at most ${MAX_RANGE_DAYS} days` });
}

export const campaignInsightsFields = {
  ...rangeFields,
  conversionActionTypes: z
    .array(z.string().regex(/^[a-z0-9_.]{1,100}$/, 'must be an action type such as lead or offsite_conversion.fb_pixel_purchase'))
    .min(1)
    .max(20)
    .optional()
    .describe('The action types counted as conversions; default lead, purchase, complete_registration.'),
};

export const dailyRowSchema = z.object({
  date: z.string(),
  impressions: z.string(),
  clicks: z.string(),
  spend: z.string().describe('Major units of the account’s currency.'),
  ctr: z.string().optional().describe('clicks / impressions as a fraction, 6 decimals; absent without impressions.'),
  cpc: z.string().optional().describe('spend / clicks; absent without clicks.'),
  cpm: z.string().optional().describe('spend × 1000 / impressions; absent without impressions.'),
  conversions: z.string(),
  conversionValue: z.string(),
  costPerConversion: z.string().optional().describe('spend / conversions; absent without conversions.'),
  reach: z.string().optional().describe('Where the platform gives it (social).'),
});

export const campaignPerformanceResultSchema = z.object({
  campaignId: z.string(),
  currency: z.string(),
  rows: z.array(dailyRowSchema).describe('One row per day with delivery, oldest first; a day without delivery has no row.'),
});

export type CampaignInsightsInput = Output<typeof campaignInsightsFields>;
export type CampaignAnalyticsInput = Output<typeof rangeFields>;
