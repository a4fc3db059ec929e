import { idempotent } from '../../shared/http/idempotency.ts';
import { defineOperation } from '../../shared/http/operation.ts';
import { loadAppCredentials } from '../../shared/secrets/app-credentials.ts';
import { recordAuditEvent } from '../../shared/store/audit-event-writes.ts';
import { undoRuleRun } from '../use-cases/rules/rule-undo-request.ts';
import { declaration } from './declaration.ts';
import { undoRuleRunRequest } from './schema.ts';

/** POST /optimize_me/undo_rule_run: every change of a rule run set back, newest first, once (docs/rules.md). */
export const handler = defineOperation({
  declaration,
  recorder: recordAuditEvent,
  credentials: loadAppCredentials,
  idempotency: idempotent(),
  request: undoRuleRunRequest,
  run: ({ input, tenantId, user, context }) => undoRuleRun(tenantId, user, input.runId, context),
});
