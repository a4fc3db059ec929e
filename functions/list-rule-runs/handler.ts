import { defineOperation } from '../../shared/http/operation.ts';
import { listRuleRunsRequest } from '../../shared/schemas/rules.ts';
import { listRunsOf } from '../use-cases/rules.ts';
import { declaration } from './declaration.ts';

/** POST /optimize_me/list_rule_runs: a rule's runs, newest first, each campaign's metrics, verdict and outcome. */
export const handler = defineOperation({
  declaration,
  request: listRuleRunsRequest,
  run: ({ input, tenantId, user }) => listRunsOf(tenantId, user.userId, input.ruleId, input.pagination),
});
