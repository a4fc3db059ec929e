import * as z from 'zod/mini';
import { userIdSchema, paginationSchema } from '../../shared/schemas/common.ts';
import { campaignIdSchema } from '../../shared/schemas/ids.ts';

/** The operation's own request and answer schemas: the handler validates with them, api.ts documents them. */
export const getOptimizationHistoryRequest = z.strictObject({
  userId: userIdSchema,
  campaignId: campaignIdSchema,
  pagination: paginationSchema.check(z.describe('Empty for the newest entries; results.paging.next for older ones.')),
});
