import { defineOperation } from '../../shared/http/operation.ts';
import { ruleRefRequest } from './schema.ts';
import { recordAuditEvent } from '../../shared/store/audit-event-writes.ts';
import { deleteRuleFor } from '../use-cases/rules/rules.ts';
import { declaration } from './declaration.ts';

/** POST /optimize_me/delete_rule: the rule leaves the schedule; its run log stays its 90 days. */
export const handler = defineOperation({
  declaration,
  recorder: recordAuditEvent,
  request: ruleRefRequest,
  run: ({ input, tenantId, user, audit }) => deleteRuleFor(tenantId, user, input.ruleId, audit),
});
