import { idempotent } from '../../shared/http/idempotency.ts';
import { connectionHealth } from '../../shared/http/middleware/connection-health.ts';
import { defineOperation } from '../../shared/http/operation.ts';
import { searchadsCampaignControl } from '../../shared/platforms/searchads/campaign-control.ts';
import { searchadsSession } from '../../shared/platforms/searchads/client.ts';
import { updateCampaignStatusRequest } from '../../shared/schemas/campaign-control.ts';
import { loadAppCredentials } from '../../shared/secrets/app-credentials.ts';
import { recordAuditEvent } from '../../shared/store/audit-event-writes.ts';
import { updateCampaignStatus } from '../use-cases/campaign-control.ts';
import { declaration } from './declaration.ts';

export const handler = defineOperation({
  declaration,
  recorder: recordAuditEvent,
  credentials: loadAppCredentials,
  connectionHealth,
  idempotency: idempotent(),
  request: updateCampaignStatusRequest,
  run: ({ input, tenantId, user, context }) =>
    updateCampaignStatus(searchadsCampaignControl, searchadsSession(user, context), { tenantId, userId: user.userId, input }),
});
