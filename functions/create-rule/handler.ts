import { idempotent } from '../../shared/http/idempotency.ts';
import { defineOperation } from '../../shared/http/operation.ts';
import { createRuleRequest } from './schema.ts';
import { loadAppCredentials } from '../../shared/secrets/app-credentials.ts';
import { recordAuditEvent } from '../../shared/store/audit-event-writes.ts';
import { createRuleFor } from '../use-cases/rules/rules.ts';
import { declaration } from './declaration.ts';

/** POST /optimize_me/create_rule: a rule on one platform's campaigns of the user, due at once when enabled. */
export const handler = defineOperation({
  declaration,
  recorder: recordAuditEvent,
  credentials: loadAppCredentials,
  idempotency: idempotent(),
  request: createRuleRequest,
  run: ({ input, tenantId, user, context, audit }) => createRuleFor(tenantId, user, input, context, audit),
});
