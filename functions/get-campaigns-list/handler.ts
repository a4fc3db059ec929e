import { loadAppCredentials } from '../../shared/secrets/app-credentials.ts';
import { connectionHealth } from '../../shared/http/middleware/connection-health.ts';
import { defineOperation } from '../../shared/http/operation.ts';
import { declaration } from './declaration.ts';
import { listCampaigns } from '../../shared/platforms/social/campaigns.ts';
import { socialSession } from '../../shared/platforms/social/session.ts';
import { getCampaignsListRequest } from './schema.ts';

export const handler = defineOperation({
  declaration,
  credentials: loadAppCredentials,
  connectionHealth,
  request: getCampaignsListRequest,
  run: async ({ user, context }) => {
    const session = socialSession(user, context);
    return { campaigns: await listCampaigns(session, session.connection.adAccountId) };
  },
});
