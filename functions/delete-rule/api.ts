import type { OperationDoc } from '../../shared/schemas/operation-doc.ts';
import { ruleRefRequest, deleteRuleResultSchema } from './schema.ts';

/** What the OpenAPI document says of this operation. */
export const api: OperationDoc = {
  summary: 'Delete a rule',
  description: 'The rule leaves the schedule at once; its run log stays readable for its 90 days.',
  tag: 'Optimization',
  request: ruleRefRequest,
  result: deleteRuleResultSchema,
  requestExample: { userId: 'demo-user', ruleId: 'rul_5f0c1b2a3d4e5f60718293a4' },
  resultExample: { ruleId: 'rul_5f0c1b2a3d4e5f60718293a4', deleted: true as const },
};
