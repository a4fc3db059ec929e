import { randomBytes } from 'node:crypto';
import { defineOperation } from '../../shared/http/operation.ts';
import { IDEMPOTENT_PLATFORM_WRITE } from '../../shared/http/operation-kits/platform-write.ts';
import { declaration } from './declaration.ts';
import { createSearchCampaign } from '../../shared/platforms/searchads/campaign-mutate.ts';
import { searchadsSession } from '../../shared/platforms/searchads/client.ts';
import { fetchImages } from '../../shared/platforms/searchads/images.ts';
import { createSearchCampaignRequest } from '../../shared/schemas/search-campaign.ts';

export const handler = defineOperation({
  declaration,
  ...IDEMPOTENT_PLATFORM_WRITE,
  request: createSearchCampaignRequest,
  run: async ({ input, user, context }) => {
    const session = searchadsSession(user, context);
    const images = await fetchImages(input.images ?? [], session);
    return createSearchCampaign(session, input, images, randomBytes(3).toString('hex'));
  },
});
