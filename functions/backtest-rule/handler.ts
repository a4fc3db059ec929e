import { defineOperation } from '../../shared/http/operation.ts';
import { loadAppCredentials } from '../../shared/secrets/app-credentials.ts';
import { backtestRule } from '../use-cases/rules/rule-backtest.ts';
import { declaration } from './declaration.ts';
import { backtestRuleRequest } from './schema.ts';

/** POST /optimize_me/backtest_rule: a rule tried day by day on the past; nothing changes anywhere (docs/rules.md). */
export const handler = defineOperation({
  declaration,
  credentials: loadAppCredentials,
  request: backtestRuleRequest,
  run: ({ input, tenantId, user, context }) => backtestRule(tenantId, user, input, context),
});
