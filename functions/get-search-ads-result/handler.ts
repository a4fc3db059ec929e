import { defineOperation } from '../../shared/http/operation.ts';
import { PLATFORM_READ } from '../../shared/http/operation-kits/platform-read.ts';
import { declaration } from './declaration.ts';
import { searchadsSession } from '../../shared/platforms/searchads/client.ts';
import { campaignStats, statsRange } from '../../shared/platforms/searchads/stats.ts';
import { getSearchAdsResultRequest } from './schema.ts';

export const handler = defineOperation({
  declaration,
  ...PLATFORM_READ,
  request: getSearchAdsResultRequest,
  run: async ({ input, user, context }) => ({
    stats: await campaignStats(searchadsSession(user, context), input.campaignId, statsRange(input.startDate, input.endDate)),
  }),
});
