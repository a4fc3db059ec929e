import { createSearchCampaignRequest } from '../../shared/schemas/search-campaign.ts';
import { createSearchCampaignResultSchema } from './schema.ts';
import { DECLARATION_REFUSAL, type OperationDoc } from '../../shared/schemas/operation-doc.ts';
import { WINTER_CAMPAIGN } from './schema.ts';

/** What the OpenAPI document says of this operation. */
export const api: OperationDoc = {
  refusals: [DECLARATION_REFUSAL],
  summary: 'Create a search campaign (operation 9)',
  description:
    'Creates the whole campaign (budget, campaign, criteria, ad group, ads, keywords, assets, goals) in ONE atomic request. `validateOnly: true` runs it as a dry run. An account blocked by campaigns without the EU political-advertising declaration answers EU_POLITICAL_DECLARATION_REQUIRED with `campaignIds`.',
  tag: 'Search ads',
  request: createSearchCampaignRequest,
  result: createSearchCampaignResultSchema,
  requestExample: WINTER_CAMPAIGN,
  resultExample: {
    campaignResourceName: 'customers/1234567890/campaigns/21234567890',
    adGroupResourceName: 'customers/1234567890/adGroups/158765432109',
    additionalMessage: '',
  },
};
