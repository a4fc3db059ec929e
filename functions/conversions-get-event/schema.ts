import * as z from 'zod';
import { PLATFORMS } from '../../shared/core/errors.ts';
import { userIdSchema } from '../../shared/schemas/common.ts';

/** The operation's own request and answer schemas: the handler validates with them, api.ts documents them. */
export const getEventRequest = z.strictObject({ userId: userIdSchema, eventId: z.string().regex(/^[A-Za-z0-9_.:-]{1,64}$/, 'must be an event id') });

export const conversionEventSchema = z.object({
  eventId: z.string(),
  leadId: z.string().optional(),
  stage: z.string(),
  occurredAt: z.string(),
  platforms: z.array(
    z.object({
      platform: z.enum(PLATFORMS),
      destinationId: z.string(),
      status: z.enum(['queued', 'delivered', 'rejected', 'unknown', 'skipped_expired', 'skipped_consent', 'skipped_no_identifier']),
      error: z.object({ code: z.string(), message: z.string() }).optional(),
    }),
  ),
});
