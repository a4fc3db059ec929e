import { defineOperation } from '../../shared/http/operation.ts';
import { PLATFORM_READ } from '../../shared/http/operation-kits/platform-read.ts';
import { declaration } from './declaration.ts';
import { listCampaigns } from '../../shared/platforms/social/campaigns.ts';
import { socialSession } from '../../shared/platforms/social/session.ts';
import { getCampaignsListRequest } from './schema.ts';

export const handler = defineOperation({
  declaration,
  ...PLATFORM_READ,
  request: getCampaignsListRequest,
  run: async ({ user, context }) => {
    const session = socialSession(user, context);
    return { campaigns: await listCampaigns(session, session.connection.adAccountId) };
  },
});
