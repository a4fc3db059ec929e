import { day, type OperationDoc } from '../../shared/schemas/operation-doc.ts';
import { EVALUATION_EXAMPLE as EVALUATION } from '../../shared/schemas/rule-examples.ts';
import { backtestResultSchema, backtestRuleRequest } from './schema.ts';

/** What the OpenAPI document says of this operation. */
export const api: OperationDoc = {
  refusals: ['SCOPE_MISSING'],
  summary: 'Backtest a rule',
  description:
    'Evaluates a stored rule (`ruleId`) or one not created yet (`rule`) as the scheduler would have, once a day over the last `days` whole days, on the platform’s daily figures, with its cooldown, the daily cap and its budget bounds applied to its own simulated actions, starting from the campaigns as they are now. Changes nothing; reads the figures of the whole range once.',
  tag: 'Optimization',
  request: backtestRuleRequest,
  result: backtestResultSchema,
  requestExample: { userId: 'demo-user', ruleId: 'rul_5f0c1b2a3d4e5f60718293a4', days: 14 },
  resultExample: { days: [{ date: day(-1), evaluations: [EVALUATION] }], summary: { actions: 1, campaigns: 1 } },
};
