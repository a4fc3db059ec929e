import * as z from 'zod';
import { instantSchema, paginationSchema, userIdSchema } from '../../shared/schemas/common.ts';
import { CONVERSION_STATUSES, conversionEventSchema, STAGE_NAME } from '../../shared/schemas/conversions.ts';

/** The operation's own request and answer schemas: the handler validates with them, api.ts documents them. */
export const listEventsRequest = z.strictObject({
  userId: userIdSchema,
  stage: z.string().regex(STAGE_NAME, 'must be a stage name').optional(),
  status: z.enum(CONVERSION_STATUSES).optional().describe('Events with this status on any platform.'),
  since: z.optional(instantSchema).check(z.describe('Events created at or after this instant.')),
  limit: z.number().int().min(1).max(100).default(50),
  pagination: paginationSchema,
});

export const listEventsResultSchema = z.object({
  events: z.array(conversionEventSchema),
  paging: z.object({ next: z.string().optional() }),
});
