import type { OperationDoc } from '../../shared/schemas/operation-doc.ts';
import { reportOutcomeRequest, reportOutcomeResultSchema } from './schema.ts';

/** What the OpenAPI document says of this operation. */
export const api: OperationDoc = {
  summary: 'Report what became of a lead',
  description:
    'A lead the service delivered reached a stage of the user’s funnel (a call booked, a deal won): 202, and the stage’s event goes to the lead’s own platform, to the destination the stage maps there, matched by the lead itself (social: the lead id with the hashed e-mail and phone; professional: the lead-form response with the hashed e-mail). On the social platform every earlier stage not sent yet for the lead goes first, in order. Once per lead and stage: a repeat answers the same `outcomeId` and sends nothing. An unknown or erased lead is 404 LEAD_NOT_FOUND; a stage without a destination on the lead’s platform 400 STAGE_NOT_MAPPED. The `conversion.*` webhooks tell each event’s end.',
  tag: 'Conversions',
  request: reportOutcomeRequest,
  result: reportOutcomeResultSchema,
  requestExample: { userId: 'demo-user', leadId: '1357924680135791', stage: 'Qualified' },
  resultExample: {
    outcomeId: 'out_5b7c9e1f3a2d4c6b8e0f1a2b',
    eventIds: ['lead_0a1b2c3d4e5f60718293a4b5c6d7e8f901234567', 'lead_1b2c3d4e5f60718293a4b5c6d7e8f9012345678'],
    status: 'queued',
  },
};
