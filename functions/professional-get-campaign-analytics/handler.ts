import { defineOperation } from '../../shared/http/operation.ts';
import { PLATFORM_READ } from '../../shared/http/operation-kits/platform-read.ts';
import { campaignAnalytics } from '../../shared/platforms/professional/analytics.ts';
import { professionalSession } from '../../shared/platforms/professional/session.ts';
import { campaignAnalyticsRequest } from './schema.ts';
import { declaration } from './declaration.ts';

/** POST /professional/get_campaign_analytics: a campaign's daily rows in our vocabulary, from one adAnalytics call. */
export const handler = defineOperation({
  declaration,
  ...PLATFORM_READ,
  request: campaignAnalyticsRequest,
  run: async ({ input, user, context }) => {
    const { currency, rows } = await campaignAnalytics(professionalSession(user, context), {
      ...input,
      adjustmentPercent: input.clientCostAdjustment?.percentage,
      grantedScopes: user.connections.professional?.scopes,
    });
    return { campaignId: input.campaignId, currency, rows };
  },
});
