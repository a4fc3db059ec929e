import type { Context } from 'aws-lambda';
import type { CreateLeadFormInput } from '../../../shared/schemas/lead-form.ts';
import { createLeadForm } from '../../../shared/platforms/social/lead-forms.ts';
import { socialSession } from '../../../shared/platforms/social/session.ts';
import type { User } from '../../../shared/store/users.ts';
import { subscribeLeadsQuietly } from './subscriptions.ts';
import { socialLeadSource } from '../platforms/social/lead-source.ts';

/** Operation 10: the lead form on the user's Page, and the Page subscribed to its leads (docs/leads.md). */
export async function createLeadFormFor(user: User, input: CreateLeadFormInput, context: Context): Promise<{ leadFormId: string }> {
  const session = socialSession(user, context);
  const leadFormId = await createLeadForm(session, session.connection.pageId, input);
  await subscribeLeadsQuietly(user, socialLeadSource, context);
  return { leadFormId };
}
