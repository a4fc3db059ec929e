import { defineOperation } from '../../shared/http/operation.ts';
import { listRuleRunsRequest } from './schema.ts';
import { NotFound } from '../../shared/core/errors.ts';
import { findRuleItem, listRuleRuns } from '../../shared/store/rules.ts';
import { declaration } from './declaration.ts';

/** POST /optimize_me/list_rule_runs: a rule's runs, newest first, each campaign's metrics, verdict and outcome. */
export const handler = defineOperation({
  declaration,
  request: listRuleRunsRequest,
  run: async ({ input, tenantId, user }) => {
    const page = await listRuleRuns(tenantId, user.userId, input.ruleId, input.pagination);
    // a rule never stored for this user (or another tenant's) is 404; a deleted one's runs stay listed
    if (page.runs.length === 0 && !input.pagination && !(await findRuleItem(tenantId, user.userId, input.ruleId)))
      throw new NotFound(`No rule ${input.ruleId} for this user.`);
    return page;
  },
});
