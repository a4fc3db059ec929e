import type { OperationDoc } from '../../shared/schemas/operation-doc.ts';
import { day } from '../../shared/schemas/example-dates.ts';
import { getReportRequest, reportResultSchema } from '../../shared/schemas/reports.ts';

/** What the OpenAPI document says of this operation. */
export const api: OperationDoc = {
  summary: 'Read a report by level and breakdown',
  description:
    'One page (at most 5,000 rows) of a report on one platform: rows at campaign, ad set or ad level, by day or for the whole range, broken down by at most one value (social: age, gender, country, region, device, placement; search ads: the same, age, gender and location not at ad level; professional: country, region, job_function, seniority, industry, company_size, no ad set level). Metrics are those of Performance, derived the same way; `dimension` is the breakdown’s value with its name. At campaign level without a breakdown, a campaign whose leads had outcomes reported through /leads/report_outcome carries `outcomes` and `costPerOutcome` per stage: the cost per qualified lead. `notes` say what the platform cannot do or estimates. A level or breakdown the platform does not offer is 400 UNSUPPORTED_LEVEL or UNSUPPORTED_BREAKDOWN naming what it offers, before any platform call.',
  tag: 'Reports',
  request: getReportRequest,
  result: reportResultSchema,
  requestExample: {
    userId: 'demo-user',
    platform: 'social',
    level: 'campaign',
    startDate: day(-7),
    endDate: day(-1),
    breakdown: 'age',
    timeIncrement: 'total',
  },
  resultExample: {
    currency: 'EUR',
    level: 'campaign',
    breakdown: 'age',
    rows: [
      {
        campaignId: '120210000000001',
        name: 'Spring leads',
        dimension: { id: '25-34', name: '25-34' },
        impressions: '5120',
        clicks: '96',
        spend: '41.30',
        ctr: '0.018750',
        cpc: '0.43',
        cpm: '8.07',
        conversions: '7',
        conversionValue: '0.00',
        costPerConversion: '5.90',
        reach: '4210',
        leads: '7',
      },
    ],
    notes: ['Breakdown rows need not add up to the totals.', 'The platform estimates breakdown values.'],
  },
};
