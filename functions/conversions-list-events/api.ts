import { day } from '../../shared/schemas/example-dates.ts';
import type { OperationDoc } from '../../shared/schemas/operation-doc.ts';
import * as z from 'zod';
import { conversionEventSchema } from '../../shared/schemas/conversions.ts';
import { listEventsRequest } from './schema.ts';

const listEventsResultSchema = z.object({
  events: z.array(conversionEventSchema),
  paging: z.object({ next: z.string().optional() }),
});

/** What the OpenAPI document says of this operation. */
export const api: OperationDoc = {
  summary: 'List conversion events',
  description:
    'The user’s conversion events, newest first, each with where it stands on each platform (as `/conversions/get_event` answers it), from one read: filtered by `stage` (as set), by a `status` on any platform, and by creation from `since`; pages of `limit` (at most 100) with an opaque `paging.next`.',
  tag: 'Conversions',
  request: listEventsRequest,
  result: listEventsResultSchema,
  requestExample: { userId: 'demo-user', status: 'delivered', limit: 20 },
  resultExample: {
    events: [
      {
        eventId: 'lead_0a1b2c3d4e5f60718293a4b5c6d7e8f901234567',
        leadId: '1357924680135791',
        stage: 'Qualified',
        occurredAt: `${day(-1)}T15:00:00.000Z`,
        platforms: [{ platform: 'social', destinationId: '771122334455667', status: 'delivered' }],
      },
    ],
    paging: {},
  },
};
