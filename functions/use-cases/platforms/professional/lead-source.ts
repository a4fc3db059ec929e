import { clock } from '../../../../shared/core/clock.ts';
import { config } from '../../../../shared/core/config.ts';
import {
  normalizeProfessionalLead,
  professionalLeadForm,
  professionalLeadsBetween,
  readProfessionalLead,
  subscribeAccountToLeads,
  unsubscribeAccountFromLeads,
} from '../../../../shared/platforms/professional/leads.ts';
import { professionalSession } from '../../../../shared/platforms/professional/session.ts';
import { type LeadSource, refusalOf } from '../../leads/lead-source.ts';

/** Where the professional network sends an ad account's lead notifications: our gateway. */
const professionalWebhook = () => `${config().PUBLIC_BASE_URL.replace(/\/+$/, '')}/platform-webhooks/professional`;

/** An ad account's leads, through the user's professional connection (docs/leads.md). */
export const professionalLeadSource: LeadSource = {
  platform: 'professional',
  scopes: ['r_marketing_leadgen_automation'],
  targetOf: (user) => user.connections.professional?.adAccountId,
  subscribe: (user, context, accountId) => subscribeAccountToLeads(professionalSession(user, context), accountId, professionalWebhook()),
  unsubscribe: (user, context, accountId) => unsubscribeAccountFromLeads(professionalSession(user, context), accountId, professionalWebhook()),
  read: async (user, context, notice) => {
    const session = professionalSession(user, context);
    const lead = await readProfessionalLead(session, notice.leadId);
    const formId = /leadGenForm:(\d+)/.exec(lead.versionedLeadGenFormUrn ?? '')?.[1] ?? notice.formId ?? '';
    return normalizeProfessionalLead(lead, await professionalLeadForm(session, formId, clock.now()));
  },
  since: async function* (user, context, accountId, sinceMs, untilMs) {
    const session = professionalSession(user, context);
    for await (const lead of professionalLeadsBetween(session, accountId, sinceMs, untilMs)) {
      const formId = /leadGenForm:(\d+)/.exec(lead.versionedLeadGenFormUrn ?? '')?.[1] ?? '';
      yield normalizeProfessionalLead(lead, await professionalLeadForm(session, formId, clock.now()));
    }
  },
  unavailable: (error) => refusalOf(error)?.platformStatus === 404,
  accessMissing: (error) => refusalOf(error)?.platformStatus === 403,
};
