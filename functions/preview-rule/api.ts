import type { OperationDoc } from '../../shared/schemas/operation-doc.ts';
import { previewRuleRequest, previewResultSchema } from './schema.ts';
import { EVALUATION_EXAMPLE as EVALUATION } from '../../shared/schemas/rule-examples.ts';

/** What the OpenAPI document says of this operation. */
export const api: OperationDoc = {
  refusals: ['SCOPE_MISSING'],
  summary: 'Preview a rule',
  description:
    'Evaluates a stored rule (`ruleId`) or one not yet created (`rule`) now, acting on nothing: per campaign its metrics, whether it matched, what it would do, or why it would not (a guardrail, a removed campaign, a budget already at its bound).',
  tag: 'Optimization',
  request: previewRuleRequest,
  result: previewResultSchema,
  requestExample: { userId: 'demo-user', ruleId: 'rul_5f0c1b2a3d4e5f60718293a4' },
  resultExample: { evaluations: [EVALUATION] },
};
