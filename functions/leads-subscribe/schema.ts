import * as z from 'zod';
import { userIdSchema } from '../../shared/schemas/common.ts';

/** The operation's own request and answer schemas: the handler validates with them, api.ts documents them. */
export const subscribeLeadsRequest = z.strictObject({ userId: userIdSchema, platform: z.enum(['social', 'professional']) });

export const subscriptionsResultSchema = z.object({
  subscriptions: z.array(
    z.object({
      target: z.string().describe('The Page (social) or ad account (professional) the user’s connection reaches.'),
      status: z.enum(['subscribed', 'failed', 'unsubscribed']),
      error: z.object({ code: z.string(), message: z.string() }).optional().describe('Why the platform refused this one.'),
    }),
  ),
});
