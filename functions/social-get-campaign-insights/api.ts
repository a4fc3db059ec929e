import { day, type OperationDoc } from '../../shared/schemas/operation-doc.ts';
import { campaignPerformanceResultSchema } from '../../shared/schemas/performance.ts';
import { campaignInsightsRequest } from './schema.ts';

/** What the OpenAPI document says of this operation. */
export const api: OperationDoc = {
  refusals: ['CAMPAIGN_NOT_FOUND'],
  summary: 'Daily performance of a social campaign',
  description:
    'One row per day with delivery (none for a day without), in the ad account’s currency and time zone: impressions, clicks, spend, ctr, cpc, cpm, conversions (the counted action types), their value, cost per conversion and reach. Ratios are derived from the counts the same way on every platform and absent when their denominator is 0. `clientCostAdjustment` scales every cost figure.',
  tag: 'Social',
  request: campaignInsightsRequest,
  result: campaignPerformanceResultSchema,
  requestExample: { userId: 'demo-user', campaignId: '120210987000000100', startDate: day(-7), endDate: day(-1) },
  resultExample: {
    campaignId: '120210987000000100',
    currency: 'USD',
    rows: [
      {
        date: day(-1),
        impressions: '15234',
        clicks: '312',
        spend: '48.27',
        ctr: '0.020481',
        cpc: '0.15',
        cpm: '3.17',
        conversions: '14',
        conversionValue: '0.00',
        costPerConversion: '3.45',
        reach: '9876',
      },
    ],
  },
};
