import * as z from 'zod';
import { campaignListItemSchema } from '../../shared/schemas/social.ts';
import { getCampaignsListRequest } from './schema.ts';
import { day, type OperationDoc } from '../../shared/schemas/operation-doc.ts';

/** What the OpenAPI document says of this operation. */
export const api: OperationDoc = {
  summary: 'Get campaigns list (operation 6)',
  description: 'Every campaign of the user’s social ad account, archived and deleted included.',
  tag: 'Social',
  request: getCampaignsListRequest,
  result: z.object({ campaigns: z.array(campaignListItemSchema) }),
  requestExample: { userId: 'demo-user' },
  resultExample: {
    campaigns: [
      {
        id: '120210987000000101',
        name: 'Autumn leads',
        objective: 'OUTCOME_LEADS',
        daily_budget: '5000',
        status: 'ACTIVE',
        issues_info: '',
        created_time: `${day(-53)}T10:15:32-0700`,
      },
    ],
  },
};
