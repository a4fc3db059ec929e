import { campaignBudgetResultSchema } from '../../shared/schemas/campaign-control.ts';
import { editCampaignRequest } from './schema.ts';
import { BUDGET_REFUSALS, DECLARATION_REFUSAL, type OperationDoc } from '../../shared/schemas/operation-doc.ts';

/** What the OpenAPI document says of this operation. */
export const api: OperationDoc = {
  refusals: [...BUDGET_REFUSALS, DECLARATION_REFUSAL],
  summary: 'Change a campaign’s daily budget (search ads)',
  description:
    'Sets the campaign’s daily budget to `amount` in the ad account’s currency (major units, converted exactly to the platform’s unit; more decimals than the currency has is 400). Reads the campaign first: refusals answer `results.success: false` with CAMPAIGN_NOT_FOUND, CAMPAIGN_REMOVED, BUDGET_NOT_ON_CAMPAIGN, SHARED_BUDGET or BUDGET_TOO_LOW. An account blocked by campaigns without the EU political-advertising declaration answers EU_POLITICAL_DECLARATION_REQUIRED with `campaignIds` (declare them with /searchads/declare_eu_political_advertising). Every applied change is added to the campaign’s optimization history and to the audit log. `validateOnly: true` changes nothing and says what would.',
  tag: 'Campaign control',
  request: editCampaignRequest,
  result: campaignBudgetResultSchema,
  requestExample: { userId: 'demo-user', campaignId: '21234567890', editLevel: 'BUDGET', amount: '75.00' },
  resultExample: {
    campaignId: '21234567890',
    dailyBudget: { amount: '75.00', currency: 'USD' },
    previousDailyBudget: { amount: '50.00', currency: 'USD' },
    changed: true,
  },
};
