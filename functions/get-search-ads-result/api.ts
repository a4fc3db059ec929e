import * as z from 'zod';
import { searchAdsStatsSchema } from '../../shared/schemas/searchads.ts';
import { getSearchAdsResultRequest } from './schema.ts';
import { day, type OperationDoc } from '../../shared/schemas/operation-doc.ts';

/** What the OpenAPI document says of this operation. */
export const api: OperationDoc = {
  summary: 'Get search-ads campaign result (operation 2)',
  description: 'Daily performance of one search-ads campaign; default range the 30 days ending today (UTC).',
  tag: 'Search ads',
  request: getSearchAdsResultRequest,
  result: z.object({ stats: z.array(searchAdsStatsSchema) }),
  requestExample: { userId: 'demo-user', campaignId: '21234567890', startDate: day(-10), endDate: day(-8) },
  resultExample: {
    stats: [
      {
        campaignid: '21234567890',
        campaignName: 'Winter Tune-Up 2026',
        servingStatus: 'SERVING',
        advertising_channel_type: 'SEARCH',
        status: 'ENABLED',
        avgPosition: '0',
        clicks: '47',
        conversions: '3',
        cost: '61.43',
        ctr: '0.038907',
        impressions: '1208',
        interactions: '47',
        topImpressionPercentage: '0.6125',
        videoViews: '0',
        videoViewRate: '0',
        averageCpv: '0',
        cpm: '50.852649',
        conversionRateRanking: 'UNKNOWN',
        costPerConversion: '20.476667',
        dateStart: day(-10),
        cpc: '1.307021',
        timeUnit: 'DAY',
        spend: '61.43',
        phone_calls: '2',
        phone_impressions: '318',
        phone_through_rate: '0.006289',
        searchImpressionShare: '0.4321',
        searchBudgetLostImpressionShare: '0.1837',
        searchRankLostImpressionShare: '0.3842',
        primary_status: 'LIMITED',
        primary_status_reasons: ['BUDGET_CONSTRAINED'],
        all_conversions: '4',
        all_conversions_value: '412.5',
        display_spend: '0',
        display_cpc: '0',
        display_costPerConversion: '0',
      },
    ],
  },
};
