import { clock } from '../../../../shared/core/clock.ts';
import {
  normalizeSocialLead,
  readSocialLead,
  socialFormQuestions,
  socialLeadsSince,
  subscribePageToLeads,
  unsubscribePageFromLeads,
} from '../../../../shared/platforms/social/leads.ts';
import { socialSession } from '../../../../shared/platforms/social/session.ts';
import { type LeadSource, refusalOf } from '../../leads/lead-source.ts';

/** A Page's leads, through the user's social connection (docs/leads.md). */
export const socialLeadSource: LeadSource = {
  platform: 'social',
  scopes: ['leads_retrieval', 'pages_manage_metadata'],
  targetOf: (user) => user.connections.social?.pageId,
  subscribe: (user, context, pageId) => subscribePageToLeads(socialSession(user, context), pageId),
  unsubscribe: (user, context, pageId) => unsubscribePageFromLeads(socialSession(user, context), pageId),
  read: async (user, context, notice) => {
    if (notice.platform !== 'social') throw new Error('a social source reads social notices');
    const session = socialSession(user, context);
    const lead = await readSocialLead(session, notice.pageId, notice.leadId);
    const formId = lead.form_id ?? notice.formId ?? '';
    return normalizeSocialLead({ ...lead, form_id: formId }, await socialFormQuestions(session, notice.pageId, formId, clock.now()), false);
  },
  since: async function* (user, context, pageId, sinceMs) {
    const session = socialSession(user, context);
    for await (const lead of socialLeadsSince(session, pageId, Math.floor(sinceMs / 1000)))
      yield normalizeSocialLead(lead, await socialFormQuestions(session, pageId, lead.form_id ?? '', clock.now()), false);
  },
  unavailable: (error) => [100, '100'].includes(refusalOf(error)?.platformCode as number),
  accessMissing: (error) => [200, 10, '200', '10'].includes(refusalOf(error)?.platformCode as number),
};
