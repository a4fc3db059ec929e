import * as z from 'zod';
import { userIdSchema } from '../../shared/schemas/common.ts';

/** The operation's own request and answer schemas: the handler validates with them, api.ts documents them. */
export const declareEuPoliticalAdvertisingRequest = z.strictObject({
  userId: userIdSchema,
  campaignIds: z
    .array(z.string().regex(/^\d{1,20}$/, 'must be a search-ads campaign id (digits)'))
    .min(1)
    .max(1_000)
    .refine((ids) => new Set(ids).size === ids.length, 'must not repeat a campaign')
    .optional()
    .describe('The campaigns to declare; absent: every campaign of the account that has no declaration yet.'),
  containsEuPoliticalAdvertising: z.boolean().describe('Whether these campaigns contain EU political advertising (a statement the advertiser makes).'),
});

export const declareEuPoliticalAdvertisingResult = z.object({
  declared: z.array(z.string()).describe('The campaigns declared: those asked for, or every undeclared one (empty when none was).'),
});

export type DeclareEuPoliticalAdvertisingInput = z.output<typeof declareEuPoliticalAdvertisingRequest>;
