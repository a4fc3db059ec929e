import { defineOperation } from '../../shared/http/operation.ts';
import { PLATFORM_READ } from '../../shared/http/operation-kits/platform-read.ts';
import { accountCurrency } from '../../shared/platforms/social/account.ts';
import { campaignInsights } from '../../shared/platforms/social/insights.ts';
import { socialSession } from '../../shared/platforms/social/session.ts';
import { campaignInsightsRequest } from './schema.ts';
import { declaration } from './declaration.ts';

/** POST /social/get_campaign_insights: a campaign's daily rows in our vocabulary, from one insights read. */
export const handler = defineOperation({
  declaration,
  ...PLATFORM_READ,
  request: campaignInsightsRequest,
  run: async ({ input, user, context }) => {
    const session = socialSession(user, context);
    const { currency, rows } = await campaignInsights(
      session,
      { ...input, conversionTypes: input.conversionActionTypes, adjustmentPercent: input.clientCostAdjustment?.percentage },
      () => accountCurrency(session, session.connection.adAccountId),
    );
    return { campaignId: input.campaignId, currency, rows };
  },
});
