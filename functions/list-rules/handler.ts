import { defineOperation } from '../../shared/http/operation.ts';
import { listRulesRequest } from './schema.ts';
import { listRules } from '../../shared/store/rules.ts';
import { declaration } from './declaration.ts';

/** POST /optimize_me/list_rules: the user's rules, 50 a page. */
export const handler = defineOperation({
  declaration,
  request: listRulesRequest,
  run: ({ input, tenantId, user }) => listRules(tenantId, user.userId, input.pagination),
});
