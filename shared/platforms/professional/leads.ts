import { leadFields, type NormalizedLead } from '../../schemas/leads.ts';
import { restliRequest, type ProfessionalSession } from './client.ts';
import { accountUrn } from './urns.ts';

/**
 * The professional network's Lead Sync (docs/leads.md, "Professional"): a lead-notification
 * subscription per ad account (listed first, made only when absent), a lead read by id, its form, and
 * the account's leads in a time window (the sweep and backfills).
 */

interface Notification {
  id: number | string;
  webhook?: string;
}

async function notificationsOf(session: ProfessionalSession, accountId: string): Promise<Notification[]> {
  const owner = `(value:(sponsoredAccount:${encodeURIComponent(accountUrn(accountId))}))`;
  const { body } = await restliRequest(session, 'GET', `/leadNotifications?q=criteria&owner=${owner}&leadType=(leadType:SPONSORED)`);
  const answer = body as { elements?: Notification[]; results?: Notification[] };
  return answer.elements ?? answer.results ?? [];
}

/** Our webhook subscribed to the account's sponsored leads, once. */
export async function subscribeAccountToLeads(session: ProfessionalSession, accountId: string, webhook: string): Promise<void> {
  if ((await notificationsOf(session, accountId)).some((notification) => notification.webhook === webhook)) return;
  await restliRequest(session, 'POST', '/leadNotifications', {
    json: { webhook, owner: { sponsoredAccount: accountUrn(accountId) }, leadType: 'SPONSORED' },
    retrySafe: false,
  });
}

export async function unsubscribeAccountFromLeads(session: ProfessionalSession, accountId: string, webhook: string): Promise<void> {
  for (const notification of await notificationsOf(session, accountId)) {
    if (notification.webhook === webhook)
      await restliRequest(session, 'DELETE', `/leadNotifications/${encodeURIComponent(String(notification.id))}`, { retrySafe: true });
  }
}

export async function readProfessionalLead(session: ProfessionalSession, leadId: string): Promise<ProfessionalLeadRead> {
  const { body } = await restliRequest(session, 'GET', `/leadFormResponses/${encodeURIComponent(leadId)}`);
  return body as ProfessionalLeadRead;
}

const formsOf = new Map<string, { at: number; form: ProfessionalForm }>();
const FORMS_KEPT_MS = 10 * 60_000;

export async function professionalLeadForm(session: ProfessionalSession, formId: string, now: number): Promise<ProfessionalForm> {
  const cached = formsOf.get(formId);
  if (cached && now - cached.at < FORMS_KEPT_MS) return cached.form;
  const { body } = await restliRequest(session, 'GET', `/leadForms/${encodeURIComponent(formId)}`);
  formsOf.set(formId, { at: now, form: body as ProfessionalForm });
  return body as ProfessionalForm;
}

/** The account's sponsored leads submitted in [startMs, endMs], a page of 100 at a time. */
export async function* professionalLeadsBetween(
  session: ProfessionalSession,
  accountId: string,
  startMs: number,
  endMs: number,
): AsyncGenerator<ProfessionalLeadRead> {
  const owner = `(sponsoredAccount:${encodeURIComponent(accountUrn(accountId))})`;
  for (let start = 0; ; start += 100) {
    const { body } = await restliRequest(
      session,
      'GET',
      `/leadFormResponses?q=owner&owner=${owner}&leadType=(leadType:SPONSORED)&limitedToTestLeads=false&submittedAtTimeRange=(start:${startMs},end:${endMs})&count=100&start=${start}`,
    );
    const page = body as { elements?: ProfessionalLeadRead[]; paging?: { total?: number } };
    const elements = page.elements ?? [];
    yield* elements;
    const total = page.paging?.total;
    if (elements.length < 100 || (total !== undefined && start + elements.length >= total)) return;
  }
}

type Fields = NormalizedLead['fields'];

/** The professional network's predefined fields that name one of ours. */
const PROFESSIONAL_FIELDS: Record<string, keyof Fields> = {
  EMAIL: 'email',
  WORK_EMAIL: 'email',
  PHONE_NUMBER: 'phone',
  WORK_PHONE_NUMBER: 'phone',
  FIRST_NAME: 'firstName',
  LAST_NAME: 'lastName',
  COMPANY_NAME: 'company',
  JOB_TITLE: 'jobTitle',
  CITY: 'city',
  COUNTRY: 'country',
  ZIP_CODE: 'zip',
};

type Localized = { localized?: Record<string, string> };
const textOf = (localized: Localized | undefined) => Object.values(localized?.localized ?? {})[0];

export interface ProfessionalLeadRead {
  id: string;
  submittedAt: number;
  testLead?: boolean;
  versionedLeadGenFormUrn?: string;
  leadMetadata?: { sponsoredLeadMetadata?: { campaign?: string } };
  associatedEntity?: { associatedCreative?: string };
  formResponse?: {
    answers?: Array<{
      questionId: number | string;
      answerDetails?: { textQuestionAnswer?: { answer?: string }; multipleChoiceAnswer?: { options?: number[] } };
    }>;
    consentResponses?: Array<{ consentId: number | string; accepted: boolean }>;
  };
}

export interface ProfessionalForm {
  content?: {
    questions?: Array<{
      questionId: number | string;
      question?: Localized;
      name?: string;
      predefinedField?: string;
      questionDetails?: { multipleChoiceQuestionDetails?: { options?: Array<{ id: number; text?: Localized }> } };
    }>;
  };
}

const idOf = (urn: string | undefined) => (urn ? urn.slice(urn.lastIndexOf(':') + 1) : undefined);

/** A professional lead, its answers (by question id) read through the form: predefined fields by name, the rest as asked. */
export function normalizeProfessionalLead(lead: ProfessionalLeadRead, form: ProfessionalForm): NormalizedLead {
  const fields = leadFields();
  const answers: NormalizedLead['answers'] = [];
  for (const answer of lead.formResponse?.answers ?? []) {
    const question = form.content?.questions?.find((candidate) => String(candidate.questionId) === String(answer.questionId));
    const choice = answer.answerDetails?.multipleChoiceAnswer?.options;
    const options = question?.questionDetails?.multipleChoiceQuestionDetails?.options ?? [];
    const value = choice
      ? choice.map((optionId) => textOf(options.find((option) => option.id === optionId)?.text) ?? String(optionId)).join(', ')
      : (answer.answerDetails?.textQuestionAnswer?.answer ?? '').trim();
    answers.push({ key: String(answer.questionId), question: textOf(question?.question) ?? question?.name ?? String(answer.questionId), value });
    const predefined = question?.predefinedField;
    const field = predefined ? PROFESSIONAL_FIELDS[predefined] : undefined;
    fields.add(field, predefined, value);
  }
  const form_ = /leadGenForm:(\d+)/.exec(lead.versionedLeadGenFormUrn ?? '')?.[1];
  const campaignId = idOf(lead.leadMetadata?.sponsoredLeadMetadata?.campaign);
  const adId = idOf(lead.associatedEntity?.associatedCreative);
  return {
    leadId: lead.id,
    platform: 'professional',
    formId: form_ ?? '',
    ...(campaignId ? { campaignId } : {}),
    ...(adId ? { adId } : {}),
    createdAt: new Date(lead.submittedAt).toISOString(),
    isTest: lead.testLead === true,
    fields: fields.result(),
    answers,
    consents: (lead.formResponse?.consentResponses ?? []).map((consent) => ({ key: String(consent.consentId), accepted: consent.accepted })),
  };
}
