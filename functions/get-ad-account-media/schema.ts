import * as z from 'zod';
import { userIdSchema, paginationSchema } from '../../shared/schemas/common.ts';

/** The operation's own request and answer schemas: the handler validates with them, api.ts documents them. */
export const getAdAccountMediaRequest = z.strictObject({
  userId: userIdSchema,
  type: z.enum(['IMAGE', 'VIDEO']).describe('IMAGE lists the ad account’s images, VIDEO its videos.'),
  pagination: paginationSchema,
});
