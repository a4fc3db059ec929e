import { defineOperation } from '../../shared/http/operation.ts';
import { loadAppCredentials } from '../../shared/secrets/app-credentials.ts';
import { recordAuditEvent } from '../../shared/store/audit-event-writes.ts';
import { reportOutcome } from '../use-cases/conversions/report-outcome.ts';
import { declaration } from './declaration.ts';
import { reportOutcomeRequest } from './schema.ts';

/** POST /leads/report_outcome (docs/conversions.md): 202, the outcome's events queued once. */
export const handler = defineOperation({
  declaration,
  credentials: loadAppCredentials, // the key that opens the sealed lead
  recorder: recordAuditEvent,
  request: reportOutcomeRequest,
  run: ({ input, tenantId, user }) => reportOutcome(tenantId, user, input),
});
