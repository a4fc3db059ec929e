import { loadAppCredentials } from '../../shared/secrets/app-credentials.ts';
import { connectionHealth } from '../../shared/http/middleware/connection-health.ts';
import { defineOperation } from '../../shared/http/operation.ts';
import { declaration } from './declaration.ts';
import { searchadsSession } from '../../shared/platforms/searchads/client.ts';
import { campaignStats, statsRange } from '../../shared/platforms/searchads/stats.ts';
import { getSearchAdsResultRequest } from './schema.ts';

export const handler = defineOperation({
  declaration,
  credentials: loadAppCredentials,
  connectionHealth,
  request: getSearchAdsResultRequest,
  run: async ({ input, user, context }) => ({
    stats: await campaignStats(searchadsSession(user, context), input.campaignId, statsRange(input.startDate, input.endDate)),
  }),
});
