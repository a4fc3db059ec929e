import * as z from 'zod';
import { connectionsSchema } from '../../shared/schemas/users.ts';
import { userIdSchema } from '../../shared/schemas/common.ts';

/** The operation's own request and answer schemas: the handler validates with them, api.ts documents them. */
export const createUserRequest = z.strictObject({
  userId: z.optional(userIdSchema).check(z.describe('Your own id for the user; generated when absent.')),
  connections: z._default(connectionsSchema, {}),
});
