import { defineOperation } from '../../shared/http/operation.ts';
import { listAuditEvents } from '../../shared/store/audit-events.ts';
import { declaration } from './declaration.ts';
import { listAuditEventsRequest } from './schema.ts';

/** POST /tenant/list_audit_events: the tenant's audit log, newest first; another tenant's events are never seen. */
export const handler = defineOperation({
  declaration,
  request: listAuditEventsRequest,
  user: false,
  run: ({ input, tenantId }) => listAuditEvents(tenantId, input, input.pagination),
});
