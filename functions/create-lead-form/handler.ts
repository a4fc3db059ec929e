import { defineOperation } from '../../shared/http/operation.ts';
import { IDEMPOTENT_PLATFORM_WRITE } from '../../shared/http/operation-kits/platform-write.ts';
import { createLeadFormFor } from '../use-cases/leads/lead-form.ts';
import { declaration } from './declaration.ts';
import { createLeadFormRequest } from './schema.ts';

/** POST /social/create_lead_form (operation 10): the form, and its Page subscribed to its leads. */
export const handler = defineOperation({
  declaration,
  ...IDEMPOTENT_PLATFORM_WRITE,
  request: createLeadFormRequest,
  run: ({ input, user, context }) => createLeadFormFor(user, input, context),
});
