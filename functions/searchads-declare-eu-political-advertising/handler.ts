import { unchanged } from '../../shared/core/audit.ts';
import { defineOperation } from '../../shared/http/operation.ts';
import { IDEMPOTENT_PLATFORM_WRITE } from '../../shared/http/operation-kits/platform-write.ts';
import { searchadsSession } from '../../shared/platforms/searchads/client.ts';
import { declareCampaigns } from '../../shared/platforms/searchads/declaration.ts';
import { declaration } from './declaration.ts';
import { declareEuPoliticalAdvertisingRequest } from './schema.ts';

/** POST /searchads/declare_eu_political_advertising: the declaration that lifts the account's block on campaign writes. */
export const handler = defineOperation({
  declaration,
  ...IDEMPOTENT_PLATFORM_WRITE,
  request: declareEuPoliticalAdvertisingRequest,
  run: async ({ input, user, context }) => {
    const declared = await declareCampaigns(searchadsSession(user, context), input.campaignIds, input.containsEuPoliticalAdvertising);
    return declared.length === 0 ? unchanged({ declared }) : { declared };
  },
});
