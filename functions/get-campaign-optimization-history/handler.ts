import { NotFound } from '../../shared/core/errors.ts';
import { defineOperation } from '../../shared/http/operation.ts';
import { declaration } from './declaration.ts';
import { getOptimizationHistoryRequest } from './schema.ts';
import { findOptimizationRecord } from '../../shared/store/optimization-history.ts';

export const handler = defineOperation({
  declaration,
  request: getOptimizationHistoryRequest,
  run: async ({ input, tenantId }) => {
    const page = await findOptimizationRecord(tenantId, input.userId, input.campaignId, input.pagination);
    if (!page) throw new NotFound('This campaign has no optimization history.');
    return page;
  },
});
