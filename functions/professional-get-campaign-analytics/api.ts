import { day, type OperationDoc } from '../../shared/schemas/operation-doc.ts';
import { campaignPerformanceResultSchema } from '../../shared/schemas/performance.ts';
import { campaignAnalyticsRequest } from './schema.ts';

/** What the OpenAPI document says of this operation. */
export const api: OperationDoc = {
  refusals: ['CAMPAIGN_NOT_FOUND', 'SCOPE_MISSING'],
  summary: 'Daily performance of a professional campaign',
  description:
    'One row per day with activity (none for a day without), in the ad account’s currency, days in UTC: impressions, clicks, spend, ctr, cpc, cpm, conversions (website conversions and one-click leads), their value and cost per conversion, derived the same way as on the other platforms. Needs the r_ads_reporting permission: a connection without it answers SCOPE_MISSING, and a new connect link asks for it.',
  tag: 'Campaign control',
  request: campaignAnalyticsRequest,
  result: campaignPerformanceResultSchema,
  requestExample: { userId: 'demo-user', campaignId: '600000101', startDate: day(-7), endDate: day(-1) },
  resultExample: {
    campaignId: '600000101',
    currency: 'USD',
    rows: [
      {
        date: day(-1),
        impressions: '4120',
        clicks: '37',
        spend: '68.53',
        ctr: '0.008981',
        cpc: '1.85',
        cpm: '16.63',
        conversions: '2',
        conversionValue: '0.00',
        costPerConversion: '34.27',
      },
    ],
  },
};
