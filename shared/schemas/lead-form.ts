import { getCountries, isValidPhoneNumber, type CountryCode } from 'libphonenumber-js/min';
import * as z from 'zod';
import { userIdSchema, type Output } from './common.ts';

/** Operation 10's request: every rule of the spec, checked before anything is sent. */
export const QUESTION_TYPES = [
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
] as const;

export const LEAD_FORM_LANGUAGES = [
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
] as const;

const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http or https URL' }).max(2048);

const nonEmpty = (max: number) => z.string().trim().min(1, 'must not be empty').max(max);

const questionSchema = z
  .strictObject({
    type: z.enum(QUESTION_TYPES),
    label: nonEmpty(500).optional().describe('The question text; required for CUSTOM questions.'),
    options: z
      .array(z.strictObject({ value: nonEmpty(300).describe('Shown to the person.'), key: nonEmpty(100).describe('Stored with the lead.') }))
      .min(1)
      .max(100)
      .optional(),
  })
  .superRefine((question, ctx) => {
    if (question.type === 'CUSTOM' && !question.label) {
      ctx.addIssue({ code: 'custom', path: ['label'], message: 'is required for CUSTOM questions' });
    }
    const keys = new Set<string>();
    question.options?.forEach((option, index) => {
      if (keys.has(option.key)) ctx.addIssue({ code: 'custom', path: ['options', index, 'key'], message: 'must be unique within the question' });
      keys.add(option.key);
    });
  });

const countries = new Set<string>(getCountries());

export const THANK_YOU_BUTTON_TYPES = ['VIEW_WEBSITE', 'CALL_BUSINESS', 'VISIT_WEBSITE'] as const;

const thankYouPageSchema = z
  .object({
    title: nonEmpty(60),
    body: nonEmpty(500),
    button_text: nonEmpty(60),
    button_type: z.enum(THANK_YOU_BUTTON_TYPES).describe('VISIT_WEBSITE is accepted as an alias of VIEW_WEBSITE.'),
    website_url: httpUrl.optional().describe('Required for VIEW_WEBSITE (or VISIT_WEBSITE).'),
    country_code: z.string().optional().describe('ISO 3166-1 alpha-2; required for CALL_BUSINESS.'),
    business_phone_number: z.string().max(40).optional().describe('Required for CALL_BUSINESS; valid for country_code.'),
  })
  .superRefine((page, ctx) => {
    if (page.button_type !== 'CALL_BUSINESS' && !page.website_url) {
      ctx.addIssue({ code: 'custom', path: ['website_url'], message: `is required when button_type is ${page.button_type}` });
    }
    if (page.country_code !== undefined && !countries.has(page.country_code)) {
      ctx.addIssue({ code: 'custom', path: ['country_code'], message: 'must be an ISO 3166-1 alpha-2 country code in upper case' });
    }
    if (page.button_type === 'CALL_BUSINESS') {
      if (page.country_code === undefined) ctx.addIssue({ code: 'custom', path: ['country_code'], message: 'is required when button_type is CALL_BUSINESS' });
      if (!page.business_phone_number) {
        ctx.addIssue({ code: 'custom', path: ['business_phone_number'], message: 'is required when button_type is CALL_BUSINESS' });
      } else if (countries.has(page.country_code ?? '') && !isValidPhoneNumber(page.business_phone_number, page.country_code as CountryCode)) {
        ctx.addIssue({ code: 'custom', path: ['business_phone_number'], message: `is not a valid phone number for ${page.country_code}` });
      }
    }
  });

export const leadFormFields = {
  userId: userIdSchema,
  leadFormQuestions: z.array(questionSchema).min(1, 'must have at least one question').max(50),
  privacyPolicyUrl: httpUrl,
  privacyPolicyName: nonEmpty(70).describe('Link text of the privacy policy, at most 70 characters.'),
  questionPageCustomHeadline: nonEmpty(300).optional(),
  leadsFormName: nonEmpty(255),
  thankYouPage: thankYouPageSchema,
  language: z.enum(LEAD_FORM_LANGUAGES),
  form_type: z.enum(['MORE_VOLUME', 'HIGHER_INTENT']),
  intro: z
    .object({
      title: nonEmpty(200),
      style: z.enum(['LIST_STYLE', 'PARAGRAPH_STYLE']),
      content: z.array(nonEmpty(1000)).min(1, 'must have at least one entry').max(20),
    })
    .optional(),
};

export type CreateLeadFormInput = Output<typeof leadFormFields>;
