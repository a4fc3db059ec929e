import { defineOperation } from '../../shared/http/operation.ts';
import { loadAppCredentials } from '../../shared/secrets/app-credentials.ts';
import { recordAuditEvent } from '../../shared/store/audit-event-writes.ts';
import { unsubscribeLeads } from '../use-cases/leads/subscriptions.ts';
import { declaration } from './declaration.ts';
import { unsubscribeLeadsRequest } from './schema.ts';

/** POST /leads/unsubscribe (docs/leads.md). */
export const handler = defineOperation({
  declaration,
  credentials: loadAppCredentials,
  recorder: recordAuditEvent,
  request: unsubscribeLeadsRequest,
  run: ({ input, user, context }) => unsubscribeLeads(user, input.platform, context),
});
