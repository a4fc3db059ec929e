import { day } from '../../shared/schemas/example-dates.ts';
import type { OperationDoc } from '../../shared/schemas/operation-doc.ts';
import { conversionEventSchema } from '../../shared/schemas/conversions.ts';
import { getEventRequest } from './schema.ts';

/** What the OpenAPI document says of this operation. */
export const api: OperationDoc = {
  summary: 'Follow a conversion event',
  description:
    'An event (a reported outcome’s, by the id `/leads/report_outcome` answered) and where it stands on each platform: `queued`, `delivered`, `rejected` (with the platform’s code and a message that quotes nothing of the person), `unknown` (the answer was lost on a platform that does not deduplicate: not sent again), or skipped before sending (`skipped_expired`: older than the platform takes; `skipped_no_identifier`: nothing it could match). Another user’s or tenant’s event is 404.',
  tag: 'Conversions',
  request: getEventRequest,
  result: conversionEventSchema,
  requestExample: { userId: 'demo-user', eventId: 'lead_0a1b2c3d4e5f60718293a4b5c6d7e8f901234567' },
  resultExample: {
    eventId: 'lead_0a1b2c3d4e5f60718293a4b5c6d7e8f901234567',
    leadId: '1357924680135791',
    stage: 'Qualified',
    occurredAt: `${day(-1)}T15:00:00.000Z`,
    platforms: [{ platform: 'social', destinationId: '771122334455667', status: 'delivered' }],
  },
};
