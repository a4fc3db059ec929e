import { recordAuditEvent } from '../../shared/store/audit-event-writes.ts';
import { randomBytes } from 'node:crypto';
import { idempotent } from '../../shared/http/idempotency.ts';
import { loadAppCredentials } from '../../shared/secrets/app-credentials.ts';
import { connectionHealth } from '../../shared/http/middleware/connection-health.ts';
import { defineOperation } from '../../shared/http/operation.ts';
import { declaration } from './declaration.ts';
import { createSearchCampaign } from '../../shared/platforms/searchads/campaign-mutate.ts';
import { searchadsSession } from '../../shared/platforms/searchads/client.ts';
import { fetchImages } from '../../shared/platforms/searchads/images.ts';
import { createSearchCampaignRequest } from '../../shared/schemas/search-campaign.ts';

export const handler = defineOperation({
  declaration,
  recorder: recordAuditEvent,
  credentials: loadAppCredentials,
  connectionHealth,
  idempotency: idempotent(),
  request: createSearchCampaignRequest,
  run: async ({ input, user, context }) => {
    const session = searchadsSession(user, context);
    const images = await fetchImages(input.images ?? [], session);
    return createSearchCampaign(session, input, images, randomBytes(3).toString('hex'));
  },
});
