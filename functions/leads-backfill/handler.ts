import { defineOperation } from '../../shared/http/operation.ts';
import { loadAppCredentials } from '../../shared/secrets/app-credentials.ts';
import { recordAuditEvent } from '../../shared/store/audit-event-writes.ts';
import { idempotent } from '../../shared/http/idempotency.ts';
import { startLeadsBackfill } from '../use-cases/leads/backfill-job.ts';
import { declaration } from './declaration.ts';
import { backfillLeadsRequest } from './schema.ts';

/** POST /leads/backfill (docs/leads.md). */
export const handler = defineOperation({
  declaration,
  credentials: loadAppCredentials,
  recorder: recordAuditEvent,
  idempotency: idempotent(),
  request: backfillLeadsRequest,
  run: ({ input, tenantId, user, audit }) => startLeadsBackfill({ tenantId, user, audit }, input.platform, input.since),
});
