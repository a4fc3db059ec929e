import { defineOperation } from '../../shared/http/operation.ts';
import { loadAppCredentials } from '../../shared/secrets/app-credentials.ts';
import { recordAuditEvent } from '../../shared/store/audit-event-writes.ts';
import { subscribeLeads } from '../use-cases/leads/subscriptions.ts';
import { declaration } from './declaration.ts';
import { subscribeLeadsRequest } from './schema.ts';

/** POST /leads/subscribe (docs/leads.md). */
export const handler = defineOperation({
  declaration,
  credentials: loadAppCredentials,
  recorder: recordAuditEvent,
  request: subscribeLeadsRequest,
  run: ({ input, user, context }) => subscribeLeads(user, input.platform, context),
});
