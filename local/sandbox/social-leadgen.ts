import { clock } from '../../shared/core/clock.ts';
import type { Row } from './social-data.ts';
import { graphError, unknownObject, type GraphHandler } from './social-graph.ts';

/** The social sandbox's lead forms: `POST /{page}/leadgen_forms` with the platform's question, locale and button checks. */

export const LEADGEN_QUESTION_TYPES = new Set([
  'CUSTOM',
  'CITY',
  'COMPANY_NAME',
  'COUNTRY',
  'DOB',
  'EMAIL',
  'GENDER',
  'FIRST_NAME',
  'FULL_NAME',
  'JOB_TITLE',
  'LAST_NAME',
  'MARITIAL_STATUS',
  'WHATSAPP_NUMBER',
  'EDUCATION_LEVEL',
  'WEBSITE',
  'PHONE',
  'PHONE_OTP',
  'POST_CODE',
  'PROVINCE',
  'RELATIONSHIP_STATUS',
  'STATE',
  'STREET_ADDRESS',
  'ZIP',
  'WORK_EMAIL',
  'MILITARY_STATUS',
  'WORK_PHONE_NUMBER',
  'SLIDER',
  'STORE_LOOKUP',
  'STORE_LOOKUP_WITH_TYPEAHEAD',
  'DATE_TIME',
  'ID_CPF',
  'ID_AR_DNI',
  'ID_CL_RUT',
  'ID_CO_CC',
  'ID_EC_CI',
  'ID_PE_DNI',
  'ID_MX_RFC',
  'JOIN_CODE',
  'USER_PROVIDED_PHONE_NUMBER',
  'FACEBOOK_LEAD_ID',
  'EMAIL_ALIAS',
  'MESSENGER',
  'VIN',
  'LICENSE_PLATE',
  'THREAD_LINK',
  'ADDRESS_LINE_TWO',
]);
export const LEADGEN_LOCALES = new Set([
  'AR_AR',
  'CS_CZ',
  'DA_DK',
  'DE_DE',
  'EL_GR',
  'EN_GB',
  'EN_US',
  'ES_ES',
  'ES_LA',
  'FI_FI',
  'FR_FR',
  'HE_IL',
  'HI_IN',
  'HU_HU',
  'ID_ID',
  'IT_IT',
  'JA_JP',
  'KO_KR',
  'NB_NO',
  'NL_NL',
  'PL_PL',
  'PT_BR',
  'PT_PT',
  'RO_RO',
  'RU_RU',
  'SV_SE',
  'TH_TH',
  'TR_TR',
  'VI_VN',
  'ZH_CN',
  'ZH_HK',
  'ZH_TW',
]);
export const BUTTON_TYPES = new Set([
  'VIEW_WEBSITE',
  'CALL_BUSINESS',
  'MESSAGE_BUSINESS',
  'DOWNLOAD',
  'SCHEDULE_APPOINTMENT',
  'VIEW_ON_FACEBOOK',
  'PROMO_CODE',
  'NONE',
  'WHATSAPP',
  'P2B_MESSENGER',
  'BOOK_ON_WEBSITE',
]);

export function isHttpUrl(value: unknown): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(String(value)).protocol);
  } catch {
    return false;
  }
}

export function parseObject(value: unknown): Row | undefined {
  if (value && typeof value === 'object' && !Array.isArray(value)) return value as Row;
  if (typeof value === 'string') {
    try {
      const parsed: unknown = JSON.parse(value);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Row;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** The part of the sandbox's state lead forms use: the Pages, their tokens, and the forms made. */
type LeadgenState = {
  pages: Map<string, unknown>;
  pageTokens: Map<string, string>;
  leadForms: Map<string, Record<string, unknown> & { pageId: string }>;
};

export const createLeadgenForm: GraphHandler<LeadgenState> = (call, state, { node }) => {
  const pageId = node as string;
  if (!state.pages.has(pageId)) return unknownObject('POST', pageId);
  if (state.pageTokens.get(call.token) !== pageId) return graphError(190, '(#190) This method must be called with a Page Access Token');
  const { params } = call;
  if (!params.name || typeof params.name !== 'string') return graphError(100, '(#100) The parameter name is required');
  const questions = typeof params.questions === 'string' ? (JSON.parse(params.questions) as unknown) : params.questions;
  if (!Array.isArray(questions) || questions.length === 0) return graphError(100, '(#100) The parameter questions is required');
  const keys = new Set<string>();
  for (const [index, question] of (questions as Row[]).entries()) {
    if (!LEADGEN_QUESTION_TYPES.has(String(question.type)))
      return graphError(100, `(#100) Param questions[${index}][type] must be one of {${[...LEADGEN_QUESTION_TYPES].join(', ')}}`);
    if (question.type === 'CUSTOM' && !question.label) return graphError(100, `(#100) Custom questions need a label (questions[${index}])`);
    if (question.key !== undefined) {
      if (keys.has(String(question.key))) return graphError(100, `(#100) Question keys must be unique: ${String(question.key)}`);
      keys.add(String(question.key));
    }
    for (const option of (question.options as Row[] | undefined) ?? []) {
      if (typeof option.value !== 'string' || typeof option.key !== 'string')
        return graphError(100, `(#100) Each option of questions[${index}] needs a value and a key`);
    }
  }
  if (params.locale !== undefined && !LEADGEN_LOCALES.has(String(params.locale)))
    return graphError(100, `(#100) Param locale must be one of {${[...LEADGEN_LOCALES].join(', ')}}`);
  const privacy = parseObject(params.privacy_policy);
  if (!privacy || !isHttpUrl(privacy.url))
    return graphError(100, '(#100) A valid privacy policy URL is required', { error_user_msg: 'Please enter a valid privacy policy URL.' });
  if (privacy.link_text !== undefined && String(privacy.link_text).length > 70)
    return graphError(100, '(#100) Privacy policy link text must be 70 characters or fewer');
  const thankYou = params.thank_you_page === undefined ? undefined : parseObject(params.thank_you_page);
  if (params.thank_you_page !== undefined) {
    if (!thankYou?.title) return graphError(100, '(#100) Param thank_you_page[title] is required');
    if (!BUTTON_TYPES.has(String(thankYou.button_type)))
      return graphError(100, `(#100) Param thank_you_page[button_type] must be one of {${[...BUTTON_TYPES].join(', ')}}`);
    if (thankYou.button_type === 'VIEW_WEBSITE' && !isHttpUrl(thankYou.website_url)) return graphError(100, '(#100) A website URL is required for this button');
    if (thankYou.button_type === 'CALL_BUSINESS' && !/^\+?[\d\s().-]{6,20}$/.test(String(thankYou.business_phone_number ?? ''))) {
      return graphError(192, '(#192) Invalid phone number', { error_user_msg: 'Please enter a valid phone number.' });
    }
  }
  const card = params.context_card === undefined ? undefined : parseObject(params.context_card);
  if (card && !['LIST_STYLE', 'PARAGRAPH_STYLE'].includes(String(card.style)))
    return graphError(100, '(#100) Param context_card[style] must be one of {LIST_STYLE, PARAGRAPH_STYLE}');
  if (
    params.is_optimized_for_quality !== undefined &&
    typeof params.is_optimized_for_quality !== 'boolean' &&
    !['true', 'false'].includes(String(params.is_optimized_for_quality))
  ) {
    return graphError(100, '(#100) Param is_optimized_for_quality must be a boolean');
  }
  const id = `10293847561${String(2000 + state.leadForms.size).padStart(5, '0')}`;
  state.leadForms.set(id, {
    id,
    pageId,
    name: params.name,
    status: 'ACTIVE',
    locale: params.locale ?? 'EN_US',
    questions,
    privacy_policy: privacy,
    ...(thankYou ? { thank_you_page: thankYou } : {}),
    ...(card ? { context_card: card } : {}),
    is_optimized_for_quality: String(params.is_optimized_for_quality) === 'true',
    ...(params.question_page_custom_headline ? { question_page_custom_headline: params.question_page_custom_headline } : {}),
    created_time: clock.date().toISOString().replace('Z', '+0000'),
  });
  return { status: 200, body: { id } };
};
