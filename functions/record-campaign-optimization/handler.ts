import { recordAuditEvent } from '../../shared/store/audit-event-writes.ts';
import { idempotent } from '../../shared/http/idempotency.ts';
import { defineOperation } from '../../shared/http/operation.ts';
import { declaration } from './declaration.ts';
import { recordOptimizationRequest } from './schema.ts';
import { appendOptimizationEntry } from '../../shared/store/optimization-history-writes.ts';

export const handler = defineOperation({
  declaration,
  recorder: recordAuditEvent,
  idempotency: idempotent(),
  request: recordOptimizationRequest,
  run: async ({ input, tenantId, audit }) => {
    const entry = await appendOptimizationEntry(tenantId, input, audit.event({ campaignId: input.campaignId }));
    return { campaignId: input.campaignId, entry };
  },
});
