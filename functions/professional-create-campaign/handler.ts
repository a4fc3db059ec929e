import { defineOperation } from '../../shared/http/operation.ts';
import { IDEMPOTENT_PLATFORM_WRITE } from '../../shared/http/operation-kits/platform-write.ts';
import { launchProfessionalCampaign } from '../use-cases/platforms/professional/launch-request.ts';
import { declaration } from './declaration.ts';
import { professionalLaunchRequest } from './schema.ts';

/** POST /professional/create_campaign: a whole campaign (group, campaign, a creative per ad, all DRAFT) made by a job, all or nothing. */
export const handler = defineOperation({
  declaration,
  ...IDEMPOTENT_PLATFORM_WRITE,
  request: professionalLaunchRequest,
  run: ({ input, tenantId, user, context, audit }) => launchProfessionalCampaign({ tenantId, user, input, context, audit }),
});
