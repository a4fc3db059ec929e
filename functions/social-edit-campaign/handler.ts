import { idempotent } from '../../shared/http/idempotency.ts';
import { connectionHealth } from '../../shared/http/middleware/connection-health.ts';
import { defineOperation } from '../../shared/http/operation.ts';
import { socialCampaignControl } from '../../shared/platforms/social/campaign-control.ts';
import { socialSession } from '../../shared/platforms/social/session.ts';
import { editCampaignRequest } from '../../shared/schemas/campaign-control.ts';
import { loadAppCredentials } from '../../shared/secrets/app-credentials.ts';
import { recordAuditEvent } from '../../shared/store/audit-event-writes.ts';
import { editCampaignBudget } from '../use-cases/campaign-control.ts';
import { declaration } from './declaration.ts';

export const handler = defineOperation({
  declaration,
  recorder: recordAuditEvent,
  credentials: loadAppCredentials,
  connectionHealth,
  idempotency: idempotent(),
  request: editCampaignRequest,
  run: ({ input, tenantId, user, context }) =>
    editCampaignBudget(socialCampaignControl, socialSession(user, context), { tenantId, userId: user.userId, input }),
});
