import type { OperationDoc } from '../../shared/schemas/operation-doc.ts';
import { day } from '../../shared/schemas/example-dates.ts';
import { checkConversionsResultSchema, sendConversionsRequest, sendConversionsResultSchema } from './schema.ts';

/** What the OpenAPI document says of this operation. */
export const api: OperationDoc = {
  summary: 'Send CRM events to the platforms',
  description:
    'Any CRM contact’s events (1–10,000): each goes to every platform whose destination its stage maps (set_stages), matched on the contact’s hashed e-mail, phone and names and on the click ids. Each event’s fate per platform is decided before anything is sent: `skipped_consent` (adUserData denied), `skipped_expired` (older than 7 days social, 90 professional, the action’s window on search ads), `skipped_no_identifier`. 202 with a `conversions` job that sends them in requests of at most 1,000 / 5,000 / 2,000 and ends each event as a conversion.* webhook; an eventId the tenant sent before keeps its first outcome and is not sent again. `validateOnly: true` answers 200 at once with each event’s fate; nothing reaches the social or professional platform, and search ads is asked with its own validateOnly. A stage mapped nowhere is 400 STAGE_NOT_MAPPED, a repeated eventId in the call 400 INVALID_REQUEST: nothing is sent.',
  tag: 'Conversions',
  request: sendConversionsRequest,
  result: sendConversionsResultSchema,
  answeredNow: {
    description: 'validateOnly: each event’s fate per platform; nothing was sent or stored.',
    result: checkConversionsResultSchema,
    resultExample: {
      events: [
        {
          eventId: 'crm_avery_0001',
          platforms: [
            { platform: 'social', status: 'queued' },
            { platform: 'searchads', status: 'rejected', problems: ['EVENT_TIME_INVALID'] },
          ],
        },
      ],
    },
  },
  requestExample: {
    userId: 'demo-user',
    events: [
      {
        eventId: 'crm_avery_0001',
        stage: 'Qualified',
        occurredAt: `${day(-1)}T10:00:00Z`,
        user: { email: 'avery@example.com', phone: '+1 800 555 0100', clickIds: { gclid: 'Cj0KCQiAFakeGclid0001_BwE' } },
        value: { amount: '120.00', currency: 'EUR' },
        consent: { adUserData: 'CONSENT_GRANTED', adPersonalization: 'CONSENT_GRANTED' },
      },
    ],
  },
  resultExample: { jobId: 'job_0f1e2d3c4b5a69788796a5b4c3d2e1f0', status: 'queued' },
};
