import type { OperationDoc } from '../../shared/schemas/operation-doc.ts';
import { ruleResultSchema } from '../../shared/schemas/rules.ts';
import { updateRuleRequest } from './schema.ts';
import { RULE_EXAMPLE as RULE } from '../../shared/schemas/rule-examples.ts';

/** What the OpenAPI document says of this operation. */
export const api: OperationDoc = {
  refusals: ['CAMPAIGN_NOT_FOUND'],
  summary: 'Update a rule',
  description:
    'Changes any field but the platform. A rule enabled again is due at once and its failure streak starts over; a disabled rule leaves the schedule.',
  tag: 'Optimization',
  request: updateRuleRequest,
  result: ruleResultSchema,
  requestExample: { userId: 'demo-user', ruleId: 'rul_5f0c1b2a3d4e5f60718293a4', enabled: false },
  resultExample: { rule: { ...RULE, enabled: false, nextRunAt: undefined } },
};
