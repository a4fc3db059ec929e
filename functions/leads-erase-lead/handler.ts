import { defineOperation } from '../../shared/http/operation.ts';
import { recordAuditEvent } from '../../shared/store/audit-event-writes.ts';
import { eraseLeadFor } from '../use-cases/leads/erase-lead.ts';
import { declaration } from './declaration.ts';
import { eraseLeadRequest } from './schema.ts';

/** POST /leads/erase_lead (docs/leads.md). */
export const handler = defineOperation({
  declaration,
  recorder: recordAuditEvent,
  request: eraseLeadRequest,
  run: ({ input, tenantId, user }) => eraseLeadFor(tenantId, user.userId, input.leadId, input.platform),
});
