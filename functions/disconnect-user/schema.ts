import * as z from 'zod';
import { userIdSchema, platformSchema } from '../../shared/schemas/common.ts';

/** The operation's own request and answer schemas: the handler validates with them, api.ts documents them. */
export const disconnectRequest = z.strictObject({
  userId: userIdSchema,
  platform: platformSchema.check(z.describe('The connection to remove.')),
});
