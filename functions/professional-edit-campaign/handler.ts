import { idempotent } from '../../shared/http/idempotency.ts';
import { connectionHealth } from '../../shared/http/middleware/connection-health.ts';
import { defineOperation } from '../../shared/http/operation.ts';
import { professionalCampaignControl } from '../../shared/platforms/professional/campaign-control.ts';
import { professionalSession } from '../../shared/platforms/professional/session.ts';
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
    editCampaignBudget(professionalCampaignControl, professionalSession(user, context), { tenantId, userId: user.userId, input }),
});
