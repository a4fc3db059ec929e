import * as z from 'zod';
import { createLeadFormRequest } from './schema.ts';
import type { OperationDoc } from '../../shared/schemas/operation-doc.ts';

/** What the OpenAPI document says of this operation. */
export const api: OperationDoc = {
  summary: 'Create a lead form (operation 10)',
  description: 'Creates the lead form on the user’s page. Every rule of the spec is checked first.',
  tag: 'Social',
  request: createLeadFormRequest,
  result: z.object({ leadFormId: z.string() }),
  requestExample: {
    userId: 'demo-user',
    leadsFormName: 'Autumn offer',
    language: 'EN_US',
    form_type: 'HIGHER_INTENT',
    privacyPolicyUrl: 'https://www.example.com/privacy',
    privacyPolicyName: 'Privacy policy',
    leadFormQuestions: [{ type: 'FULL_NAME' }, { type: 'EMAIL' }],
    thankYouPage: {
      title: 'Thanks!',
      body: 'We will call you.',
      button_text: 'Visit website',
      button_type: 'VIEW_WEBSITE',
      website_url: 'https://www.example.com',
    },
  },
  resultExample: { leadFormId: '1029384756102938' },
};
