import { defineOperation } from '../shared/http/operation.ts';
import { listCampaigns } from '../shared/platforms/social/campaigns.ts';
import { socialSession } from '../shared/platforms/social/session.ts';
import { getCampaignsListRequest } from '../shared/schemas/social.ts';

export const handler = defineOperation({
  name: 'get_campaigns_list',
  request: getCampaignsListRequest,
  run: async ({ user, context }) => {
    const session = socialSession(user, context);
    return { campaigns: await listCampaigns(session, session.connection.adAccountId) };
  },
});
