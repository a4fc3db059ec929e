import * as z from 'zod';
import { userIdSchema, paginationSchema, instantSchema } from '../../shared/schemas/common.ts';
import { normalizedLeadSchema } from '../../shared/schemas/leads.ts';

/** The operation's own request and answer schemas: the handler validates with them, api.ts documents them. */
export const listLeadsRequest = z
  .strictObject({
    userId: userIdSchema,
    platform: z.enum(['social', 'professional']).optional(),
    formId: z.string().min(1).max(64).optional(),
    campaignId: z.string().min(1).max(64).optional(),
    since: z.optional(instantSchema).check(z.describe('Submitted at or after (ISO 8601).')),
    until: z.optional(instantSchema).check(z.describe('Submitted at or before (ISO 8601); not before `since`.')),
    limit: z.number().int().min(1).max(100).default(25),
    pagination: paginationSchema,
  })
  .refine((input) => !input.since || !input.until || Date.parse(input.since) <= Date.parse(input.until), {
    path: ['until'],
    message: 'must not be before since',
  });

export const listLeadsResultSchema = z.object({
  leads: z.array(z.object({ receivedAt: z.string(), lead: normalizedLeadSchema })).describe('Newest submission first.'),
  paging: z.object({ next: z.string().optional() }),
});
