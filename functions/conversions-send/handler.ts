import { defineOperation } from '../../shared/http/operation.ts';
import { loadAppCredentials } from '../../shared/secrets/app-credentials.ts';
import { recordAuditEvent } from '../../shared/store/audit-event-writes.ts';
import { sendConversions } from '../use-cases/conversions/send-conversions.ts';
import { declaration } from './declaration.ts';
import { sendConversionsRequest } from './schema.ts';

/** POST /conversions/send (docs/conversions.md): 202 with the job that sends the events, or 200 with their check (validateOnly). */
export const handler = defineOperation({
  declaration,
  credentials: loadAppCredentials,
  recorder: recordAuditEvent,
  request: sendConversionsRequest,
  run: ({ input, tenantId, user, audit, context }) => sendConversions({ tenantId, user, audit, context }, input),
});
