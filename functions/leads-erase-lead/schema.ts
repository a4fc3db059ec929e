import * as z from 'zod';
import { userIdSchema } from '../../shared/schemas/common.ts';

/** The operation's own request and answer schemas: the handler validates with them, api.ts documents them. */
export const eraseLeadRequest = z.strictObject({
  userId: userIdSchema,
  leadId: z.string().min(1).max(128),
  platform: z.enum(['social', 'professional']).optional().describe('When the same id could be either platform’s.'),
});

export const eraseLeadResultSchema = z.object({ leadId: z.string(), erased: z.literal(true) });
