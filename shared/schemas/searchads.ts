import * as z from 'zod';
import { dateSchema, numericIdSchema, userIdSchema } from './common.ts';

// ---- operation 2 ----------------------------------------------------------------------------

export const getSearchAdsResultRequest = z
  .strictObject({
    userId: userIdSchema,
    campaignId: numericIdSchema('campaignId'),
    startDate: dateSchema.optional().describe('First day, YYYY-MM-DD; default endDate − 29 days.'),
    endDate: dateSchema.optional().describe('Last day, YYYY-MM-DD; default today (UTC).'),
  })
  .superRefine((input, ctx) => {
    if (input.startDate && input.endDate && input.startDate > input.endDate) {
      ctx.addIssue({ code: 'custom', path: ['endDate'], message: 'must not be before startDate' });
    }
  });

export const searchAdsStatsSchema = z.object({
  campaignid: z.string(),
  campaignName: z.string(),
  servingStatus: z.string(),
  advertising_channel_type: z.string(),
  status: z.string(),
  avgPosition: z.string(),
  clicks: z.string(),
  conversions: z.string(),
  cost: z.string(),
  ctr: z.string(),
  impressions: z.string(),
  interactions: z.string(),
  topImpressionPercentage: z.string(),
  videoViews: z.string(),
  videoViewRate: z.string(),
  averageCpv: z.string(),
  cpm: z.string(),
  conversionRateRanking: z.string(),
  costPerConversion: z.string(),
  dateStart: z.string(),
  cpc: z.string(),
  timeUnit: z.string(),
  spend: z.string(),
  phone_calls: z.string(),
  phone_impressions: z.string(),
  phone_through_rate: z.string(),
  searchImpressionShare: z.string(),
  searchBudgetLostImpressionShare: z.string(),
  searchRankLostImpressionShare: z.string(),
  primary_status: z.string(),
  primary_status_reasons: z.array(z.string()),
  all_conversions: z.string(),
  all_conversions_value: z.string(),
  display_spend: z.string(),
  display_cpc: z.string(),
  display_costPerConversion: z.string(),
});
export type SearchAdsStats = z.infer<typeof searchAdsStatsSchema>;
