import { defineOperation } from '../../shared/http/operation.ts';
import { previewRuleRequest } from './schema.ts';
import { loadAppCredentials } from '../../shared/secrets/app-credentials.ts';
import { previewRule } from '../use-cases/rules/rules.ts';
import { declaration } from './declaration.ts';

/** POST /optimize_me/preview_rule: a stored rule, or one not yet created, evaluated now; nothing changes anywhere. */
export const handler = defineOperation({
  declaration,
  credentials: loadAppCredentials,
  request: previewRuleRequest,
  run: ({ input, tenantId, user, context }) => previewRule(tenantId, user, input, context),
});
