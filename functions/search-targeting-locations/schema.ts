import * as z from 'zod';
import { userIdSchema } from '../../shared/schemas/common.ts';

/** The operation's own request and answer schemas: the handler validates with them, api.ts documents them. */
export const searchTargetingLocationsRequest = z.strictObject({
  userId: userIdSchema,
  query: z.string().trim().min(1, 'must not be empty').max(200).describe('Free text; matched as a prefix of location names.'),
});
