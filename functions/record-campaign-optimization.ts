import { defineOperation } from '../shared/http/operation.ts';
import { recordOptimizationRequest } from '../shared/schemas/optimization.ts';
import { appendOptimizationEntry } from '../shared/store/optimization-history.ts';

export const handler = defineOperation({
  name: 'record_campaign_optimization',
  request: recordOptimizationRequest,
  idempotent: true,
  run: async ({ input, tenantId }) => {
    const entry = await appendOptimizationEntry(tenantId, input);
    return { campaignId: input.campaignId, entry };
  },
});
