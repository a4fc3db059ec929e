import { idempotent } from '../../shared/http/idempotency.ts';
import { defineOperation } from '../../shared/http/operation.ts';
import { declaration } from './declaration.ts';
import { recordOptimizationRequest } from '../../shared/schemas/optimization.ts';
import { appendOptimizationEntry } from '../../shared/store/optimization-history-writes.ts';

export const handler = defineOperation({
  declaration,
  idempotency: idempotent(),
  request: recordOptimizationRequest,
  run: async ({ input, tenantId }) => {
    const entry = await appendOptimizationEntry(tenantId, input);
    return { campaignId: input.campaignId, entry };
  },
});
