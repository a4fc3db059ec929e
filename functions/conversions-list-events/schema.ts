import * as z from 'zod/mini';
import { instantSchema, paginationSchema, userIdSchema } from '../../shared/schemas/common.ts';
import { CONVERSION_STATUSES, STAGE_NAME } from '../../shared/schemas/conversion-values.ts';

/** The operation's request schema (the handler validates with it); its answer's is in api.ts, so the handler bundles no conversion schema. */
export const listEventsRequest = z.strictObject({
  userId: userIdSchema,
  stage: z.optional(z.string().check(z.regex(STAGE_NAME, 'must be a stage name'))),
  status: z.optional(z.enum(CONVERSION_STATUSES)).check(z.describe('Events with this status on any platform.')),
  since: z.optional(instantSchema).check(z.describe('Events created at or after this instant.')),
  limit: z._default(z.int().check(z.minimum(1), z.maximum(100)), 50),
  pagination: paginationSchema,
});
