import type { OperationDoc } from '../../shared/schemas/operation-doc.ts';
import { listRulesRequest, rulesListResultSchema } from './schema.ts';
import { RULE_EXAMPLE as RULE } from '../../shared/schemas/rule-examples.ts';

/** What the OpenAPI document says of this operation. */
export const api: OperationDoc = {
  summary: 'List rules',
  description: 'The user’s rules, 50 a page, with their next run, last run and failure streak.',
  tag: 'Optimization',
  request: listRulesRequest,
  result: rulesListResultSchema,
  requestExample: { userId: 'demo-user' },
  resultExample: { rules: [RULE], paging: {} },
};
