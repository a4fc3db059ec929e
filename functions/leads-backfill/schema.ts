import * as z from 'zod';
import { userIdSchema, instantSchema } from '../../shared/schemas/common.ts';
import { jobStatusSchema } from '../../shared/schemas/uploads.ts';

/** The operation's own request and answer schemas: the handler validates with them, api.ts documents them. */
export const backfillLeadsRequest = z.strictObject({
  userId: userIdSchema,
  platform: z.enum(['social', 'professional']),
  since: instantSchema.check(z.describe('How far back to read: at most 90 days (what the platforms keep).')),
});

export const backfillStartedSchema = z.object({ jobId: z.string(), status: jobStatusSchema });
