import * as z from 'zod';
import { userIdSchema, numericIdSchema, dateSchema } from '../../shared/schemas/common.ts';

/** The operation's own request and answer schemas: the handler validates with them, api.ts documents them. */
export const getSearchAdsResultRequest = z
  .strictObject({
    userId: userIdSchema,
    campaignId: numericIdSchema('campaignId'),
    startDate: z.optional(dateSchema).check(z.describe('First day, YYYY-MM-DD; default endDate − 29 days.')),
    endDate: z.optional(dateSchema).check(z.describe('Last day, YYYY-MM-DD; default today (UTC).')),
  })
  .superRefine((input, ctx) => {
    if (input.startDate && input.endDate && input.startDate > input.endDate) {
      ctx.addIssue({ code: 'custom', path: ['endDate'], message: 'must not be before startDate' });
    }
  });
