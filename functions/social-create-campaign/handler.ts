import { defineOperation } from '../../shared/http/operation.ts';
import { IDEMPOTENT_PLATFORM_WRITE } from '../../shared/http/operation-kits/platform-write.ts';
import { launchSocialCampaign } from '../use-cases/platforms/social/launch-request.ts';
import { declaration } from './declaration.ts';
import { socialLaunchRequest } from './schema.ts';

/** POST /social/create_campaign: a whole campaign (campaign, ad set, a creative and an ad per ad) made by a job, all or nothing. */
export const handler = defineOperation({
  declaration,
  ...IDEMPOTENT_PLATFORM_WRITE,
  request: socialLaunchRequest,
  run: ({ input, tenantId, user, context, audit }) => launchSocialCampaign({ tenantId, user, input, context, audit }),
});
