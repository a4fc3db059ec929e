import { leadFields, type NormalizedLead } from '../../schemas/leads.ts';
import { graphRequest, type SocialSession } from './client.ts';
import { pageAccessToken } from './lead-forms.ts';

/**
 * The social platform's leads (docs/leads.md, "Social"): the app installed on a Page for `leadgen`
 * webhooks, a lead read by id, a form's questions, and the leads of a Page's forms since a time (the
 * sweep and backfills). Every call goes with the Page's token, derived from the user's.
 */
export const LEAD_FIELDS = 'id,created_time,ad_id,adset_id,campaign_id,form_id,field_data,is_organic,platform,custom_disclaimer_responses';

const asPage = async (session: SocialSession, pageId: string): Promise<SocialSession> => ({
  ...session,
  accessToken: (await pageAccessToken(session, pageId)).token,
});

/** The app installed on the Page for lead webhooks (a repeat is harmless). */
export async function subscribePageToLeads(session: SocialSession, pageId: string): Promise<void> {
  await graphRequest(await asPage(session, pageId), 'POST', `${pageId}/subscribed_apps`, { subscribed_fields: 'leadgen' }, { retrySafe: true });
}

export async function unsubscribePageFromLeads(session: SocialSession, pageId: string): Promise<void> {
  await graphRequest(await asPage(session, pageId), 'DELETE', `${pageId}/subscribed_apps`, {}, { retrySafe: true });
}

export async function readSocialLead(session: SocialSession, pageId: string, leadId: string): Promise<SocialLeadRead> {
  const { body } = await graphRequest<SocialLeadRead>(await asPage(session, pageId), 'GET', leadId, { fields: LEAD_FIELDS });
  return body;
}

/** A form's questions, kept for a while per form (a lead's field names are its question keys). */
const questionsOf = new Map<string, { at: number; questions: SocialFormQuestion[] }>();
const QUESTIONS_KEPT_MS = 10 * 60_000;

export async function socialFormQuestions(session: SocialSession, pageId: string, formId: string, now: number): Promise<SocialFormQuestion[]> {
  const cached = questionsOf.get(formId);
  if (cached && now - cached.at < QUESTIONS_KEPT_MS) return cached.questions;
  const { body } = await graphRequest<{ questions?: SocialFormQuestion[] }>(await asPage(session, pageId), 'GET', formId, { fields: 'id,questions' });
  const questions = body.questions ?? [];
  questionsOf.set(formId, { at: now, questions });
  return questions;
}

interface Page<T> {
  data?: T[];
  paging?: { cursors?: { after?: string }; next?: string };
}

/** Every page of an edge, following the cursors (never the `next` URL: it carries the token). */
async function* pages<T>(session: SocialSession, path: string, params: Record<string, unknown>): AsyncGenerator<T> {
  let after: string | undefined;
  do {
    const { body } = await graphRequest<Page<T>>(session, 'GET', path, { ...params, limit: 100, ...(after ? { after } : {}) });
    yield* body.data ?? [];
    after = body.paging?.next ? body.paging.cursors?.after : undefined;
  } while (after);
}

/** The leads of every form of the Page created after `sinceSeconds` (UNIX s), newest first per form. */
export async function* socialLeadsSince(session: SocialSession, pageId: string, sinceSeconds: number): AsyncGenerator<SocialLeadRead> {
  const page = await asPage(session, pageId);
  for await (const form of pages<{ id: string }>(page, `${pageId}/leadgen_forms`, { fields: 'id,status' })) {
    // whole seconds on the platform's side: one before, so a lead of the very second is not missed (a repeat is known)
    const filtering = JSON.stringify([{ field: 'time_created', operator: 'GREATER_THAN', value: sinceSeconds - 1 }]);
    for await (const lead of pages<SocialLeadRead>(page, `${form.id}/leads`, { fields: LEAD_FIELDS, filtering })) yield { form_id: form.id, ...lead };
  }
}

/** The social lead in our one shape (docs/leads.md, "The normalized lead"): its field names (question keys) read through the form's questions. */
type Fields = NormalizedLead['fields'];

/** The social platform's question types (and their default keys) that name a field. */
const SOCIAL_FIELDS: Record<string, keyof Fields> = {
  EMAIL: 'email',
  WORK_EMAIL: 'email',
  PHONE: 'phone',
  USER_PROVIDED_PHONE_NUMBER: 'phone',
  PHONE_OTP: 'phone',
  WORK_PHONE_NUMBER: 'phone',
  FULL_NAME: 'fullName',
  FIRST_NAME: 'firstName',
  LAST_NAME: 'lastName',
  COMPANY_NAME: 'company',
  JOB_TITLE: 'jobTitle',
  CITY: 'city',
  COUNTRY: 'country',
  ZIP: 'zip',
  POST_CODE: 'zip',
};
const SOCIAL_DEFAULT_KEYS: Record<string, string> = {
  email: 'EMAIL',
  work_email: 'WORK_EMAIL',
  phone_number: 'PHONE',
  work_phone_number: 'WORK_PHONE_NUMBER',
  full_name: 'FULL_NAME',
  first_name: 'FIRST_NAME',
  last_name: 'LAST_NAME',
  company_name: 'COMPANY_NAME',
  job_title: 'JOB_TITLE',
  city: 'CITY',
  country: 'COUNTRY',
  zip_code: 'ZIP',
  post_code: 'POST_CODE',
};

export interface SocialLeadRead {
  id: string;
  created_time: string;
  form_id?: string;
  ad_id?: string;
  adset_id?: string;
  campaign_id?: string;
  is_organic?: boolean;
  field_data?: Array<{ name: string; values?: string[] }>;
  custom_disclaimer_responses?: Array<{ checkbox_key: string; is_checked: string }>;
}

export interface SocialFormQuestion {
  key: string;
  label?: string;
  type: string;
  options?: Array<{ key: string; value: string }>;
}

/** A social lead, its field names (question keys) read through the form's questions. */
export function normalizeSocialLead(lead: SocialLeadRead, questions: SocialFormQuestion[], test: boolean): NormalizedLead {
  const fields = leadFields();
  const answers: NormalizedLead['answers'] = [];
  for (const { name, values = [] } of lead.field_data ?? []) {
    const question = questions.find((candidate) => candidate.key === name);
    const type = question?.type ?? SOCIAL_DEFAULT_KEYS[name];
    const labels = values.map((value) => question?.options?.find((option) => option.key === value)?.value ?? value).map((value) => value.trim());
    const value = labels.join(', ');
    answers.push({ key: name, question: question?.label ?? readable(type) ?? name, value });
    const field = type ? SOCIAL_FIELDS[type] : undefined;
    fields.add(field, type, value);
  }
  return {
    leadId: lead.id,
    platform: 'social',
    formId: lead.form_id ?? '',
    ...(lead.campaign_id ? { campaignId: lead.campaign_id } : {}),
    ...(lead.adset_id ? { adSetId: lead.adset_id } : {}),
    ...(lead.ad_id ? { adId: lead.ad_id } : {}),
    createdAt: isoOf(lead.created_time),
    isTest: test,
    fields: fields.result(),
    answers,
    consents: (lead.custom_disclaimer_responses ?? []).map((box) => ({ key: box.checkbox_key, accepted: box.is_checked === '1' })),
  };
}

/** The platform's `YYYY-MM-DDTHH:MM:SS+0000` as ISO 8601 UTC with `Z`. */
const isoOf = (time: string) => new Date(time.replace(/([+-]\d{2})(\d{2})$/, '$1:$2')).toISOString();

/**
 * The app's own subscription to Pages' `leadgen` events (once per app and environment, a deploy step:
 * `npm run admin -- subscribe-platform-webhooks`): the platform verifies the callback with a GET first.
 */
export async function subscribeAppToPageLeads(
  budget: { deadline: number },
  app: { appId: string; appSecret: string; callbackUrl: string; verifyToken: string },
): Promise<void> {
  await graphRequest(
    { ...budget, accessToken: `${app.appId}|${app.appSecret}` },
    'POST',
    `${app.appId}/subscriptions`,
    { object: 'page', callback_url: app.callbackUrl, fields: 'leadgen', include_values: true, verify_token: app.verifyToken },
    { retrySafe: true },
  );
}

/** A standard question's type as a person reads it (`FULL_NAME` → "Full name"), when the form gave it no label. */
const readable = (type: string | undefined) => (type ? `${type.charAt(0)}${type.slice(1).toLowerCase().replaceAll('_', ' ')}` : undefined);
