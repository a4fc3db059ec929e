import { defineOperation } from '../../shared/http/operation.ts';
import { loadAppCredentials } from '../../shared/secrets/app-credentials.ts';
import { recordAuditEvent } from '../../shared/store/audit-event-writes.ts';
import { setConversionStages } from '../use-cases/conversions/stages.ts';
import { declaration } from './declaration.ts';
import { setStagesRequest } from './schema.ts';

/** POST /conversions/set_stages (docs/conversions.md). */
export const handler = defineOperation({
  declaration,
  credentials: loadAppCredentials,
  recorder: recordAuditEvent,
  request: setStagesRequest,
  run: ({ input, tenantId, user, context }) => setConversionStages(tenantId, user, input, context),
});
