import { campaignBudgetResultSchema } from '../../shared/schemas/campaign-control.ts';
import { editCampaignRequest } from './schema.ts';
import { BUDGET_REFUSALS, type OperationDoc } from '../../shared/schemas/operation-doc.ts';

/** What the OpenAPI document says of this operation. */
export const api: OperationDoc = {
  refusals: BUDGET_REFUSALS,
  summary: 'Change a campaign’s daily budget (social)',
  description:
    'Sets the campaign’s daily budget to `amount` in the ad account’s currency (major units, converted exactly to the platform’s unit; more decimals than the currency has is 400). Reads the campaign first: refusals answer `results.success: false` with CAMPAIGN_NOT_FOUND, CAMPAIGN_REMOVED, BUDGET_NOT_ON_CAMPAIGN, SHARED_BUDGET or BUDGET_TOO_LOW. Every applied change is added to the campaign’s optimization history and to the audit log. `validateOnly: true` changes nothing and says what would.',
  tag: 'Campaign control',
  request: editCampaignRequest,
  result: campaignBudgetResultSchema,
  requestExample: { userId: 'demo-user', campaignId: '120210987000000100', editLevel: 'BUDGET', amount: '75.00' },
  resultExample: {
    campaignId: '120210987000000100',
    dailyBudget: { amount: '75.00', currency: 'USD' },
    previousDailyBudget: { amount: '50.00', currency: 'USD' },
    changed: true,
  },
};
