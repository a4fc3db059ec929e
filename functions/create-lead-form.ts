import { defineOperation } from '../shared/http/operation.ts';
import { createLeadForm } from '../shared/platforms/social/lead-forms.ts';
import { socialSession } from '../shared/platforms/social/session.ts';
import { createLeadFormRequest } from '../shared/schemas/lead-form.ts';

export const handler = defineOperation({
  name: 'create_lead_form',
  request: createLeadFormRequest,
  idempotent: true,
  run: async ({ input, user, context }) => {
    const session = socialSession(user, context);
    return { leadFormId: await createLeadForm(session, session.connection.pageId, input) };
  },
});
