import type { Context as LambdaContext } from 'aws-lambda';

/** What a lead read needs of the function: the time it has left. */
type Context = Pick<LambdaContext, 'getRemainingTimeInMillis'>;
import { clock } from '../../../shared/core/clock.ts';
import { config } from '../../../shared/core/config.ts';
import { PlatformNotConnected, PlatformRejected, ScopeMissing } from '../../../shared/core/errors.ts';
import type { LeadNotice } from '../../../shared/leads/notifications.ts';
import {
  normalizeProfessionalLead,
  professionalLeadForm,
  professionalLeadsBetween,
  readProfessionalLead,
  subscribeAccountToLeads,
  unsubscribeAccountFromLeads,
} from '../../../shared/platforms/professional/leads.ts';
import { professionalSession } from '../../../shared/platforms/professional/session.ts';
import {
  normalizeSocialLead,
  readSocialLead,
  socialFormQuestions,
  socialLeadsSince,
  subscribePageToLeads,
  unsubscribePageFromLeads,
} from '../../../shared/platforms/social/leads.ts';
import { socialSession } from '../../../shared/platforms/social/session.ts';
import type { NormalizedLead } from '../../../shared/schemas/leads.ts';
import type { User } from '../../../shared/store/users.ts';

/**
 * Where a platform's leads come from, through a user's connection (docs/leads.md): what the user's
 * connection reaches (a Page, an ad account), the permissions leads need, the subscription, one lead
 * read (with its form, kept a while) and the leads since a time. One source per platform; the rest of
 * the leads feature knows no platform.
 */
export type LeadPlatform = NormalizedLead['platform'];

export interface LeadSource {
  /** the permissions a connection needs for leads (a connect link asks for them) */
  scopes: readonly string[];
  /** what the user's connection takes leads of: a Page (social), an ad account (professional) */
  targetOf(user: User): string | undefined;
  subscribe(user: User, context: Context, target: string): Promise<void>;
  unsubscribe(user: User, context: Context, target: string): Promise<void>;
  read(user: User, context: Context, notice: LeadNotice): Promise<NormalizedLead>;
  since(user: User, context: Context, target: string, sinceMs: number, untilMs: number): AsyncGenerator<NormalizedLead>;
  /** the platform's refusal means the lead is gone (deleted, past its 90 days), not that we may not read it */
  unavailable(error: unknown): boolean;
  /** the platform's refusal is the business's leads access (or the member's roles), outside the OAuth grant */
  accessMissing(error: unknown): boolean;
}

const professionalWebhook = () => `${config().PUBLIC_BASE_URL.replace(/\/+$/, '')}/platform-webhooks/professional`;
const refusal = (error: unknown) => (error instanceof PlatformRejected ? error.extra : undefined);

const social: LeadSource = {
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
  unavailable: (error) => [100, '100'].includes(refusal(error)?.platformCode as number),
  accessMissing: (error) => [200, 10, '200', '10'].includes(refusal(error)?.platformCode as number),
};

const professional: LeadSource = {
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
  unavailable: (error) => refusal(error)?.platformStatus === 404,
  accessMissing: (error) => refusal(error)?.platformStatus === 403,
};

/** Every platform whose leads the service takes, by name. */
export const LEAD_SOURCES: Record<LeadPlatform, LeadSource> = { social, professional };

/**
 * The user's connection for leads: connected, granted what leads need (a connection given as raw
 * tokens names no scopes and is taken to hold them until the platform refuses), reaching a target.
 */
export function leadTargetOf(user: User, platform: LeadPlatform): string {
  const source = LEAD_SOURCES[platform];
  const connection = user.connections[platform];
  if (!connection) throw new PlatformNotConnected(platform);
  const granted = connection.scopes?.split(/[ ,]+/);
  const missing = granted ? source.scopes.filter((scope) => !granted.includes(scope)) : [];
  if (missing.length > 0) throw new ScopeMissing(platform, missing.join(', '));
  const target = source.targetOf(user);
  if (!target)
    throw new PlatformNotConnected(
      platform,
      `The user’s ${platform} connection names no ${platform === 'social' ? 'Page' : 'ad account'}; connect one to take its leads.`,
    );
  return target;
}
