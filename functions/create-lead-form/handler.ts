import { defineOperation } from '../../shared/http/operation.ts';
import { IDEMPOTENT_PLATFORM_WRITE } from '../../shared/http/operation-kits/platform-write.ts';
import { declaration } from './declaration.ts';
import { createLeadForm } from '../../shared/platforms/social/lead-forms.ts';
import { socialSession } from '../../shared/platforms/social/session.ts';
import { createLeadFormRequest } from './schema.ts';

export const handler = defineOperation({
  declaration,
  ...IDEMPOTENT_PLATFORM_WRITE,
  request: createLeadFormRequest,
  run: async ({ input, user, context }) => {
    const session = socialSession(user, context);
    return { leadFormId: await createLeadForm(session, session.connection.pageId, input) };
  },
});
