import { recordAuditEvent } from '../../shared/store/audit-event-writes.ts';
import { idempotent } from '../../shared/http/idempotency.ts';
import { loadAppCredentials } from '../../shared/secrets/app-credentials.ts';
import { connectionHealth } from '../../shared/http/middleware/connection-health.ts';
import { defineOperation } from '../../shared/http/operation.ts';
import { declaration } from './declaration.ts';
import { createLeadForm } from '../../shared/platforms/social/lead-forms.ts';
import { socialSession } from '../../shared/platforms/social/session.ts';
import { createLeadFormRequest } from '../../shared/schemas/lead-form.ts';

export const handler = defineOperation({
  declaration,
  recorder: recordAuditEvent,
  credentials: loadAppCredentials,
  connectionHealth,
  idempotency: idempotent(),
  request: createLeadFormRequest,
  run: async ({ input, user, context }) => {
    const session = socialSession(user, context);
    return { leadFormId: await createLeadForm(session, session.connection.pageId, input) };
  },
});
