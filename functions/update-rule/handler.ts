import { defineOperation } from '../../shared/http/operation.ts';
import { updateRuleRequest } from './schema.ts';
import { loadAppCredentials } from '../../shared/secrets/app-credentials.ts';
import { recordAuditEvent } from '../../shared/store/audit-event-writes.ts';
import { updateRuleFor } from '../use-cases/rules/rules.ts';
import { declaration } from './declaration.ts';

/** POST /optimize_me/update_rule: any field but the platform; enabling a rule again makes it due at once. */
export const handler = defineOperation({
  declaration,
  recorder: recordAuditEvent,
  credentials: loadAppCredentials,
  request: updateRuleRequest,
  run: ({ input, tenantId, user, context, audit }) => updateRuleFor(tenantId, user, input, context, audit),
});
