import * as z from 'zod';
import { userIdSchema } from '../../shared/schemas/common.ts';
import { evaluationSchema, storedOrNewRule } from '../../shared/schemas/rules.ts';

/** The operation's own request and answer schemas: the handler validates with them, api.ts documents them. */
/** Exactly one of ruleId and rule (a oneOf in the document and in a typed client's types). */
export const backtestRuleRequest = storedOrNewRule({
  userId: userIdSchema,
  days: z.number().int().min(1).max(30).describe('How many whole days before today to try it on (1–30).'),
});

export const backtestResultSchema = z.object({
  days: z
    .array(z.object({ date: z.string().describe('A day of the ad account’s time zone, oldest first.'), evaluations: z.array(evaluationSchema) }))
    .describe('Each day as the scheduler would have run it: every campaign’s metrics, whether it matched, the simulated action or why none.'),
  summary: z.object({
    actions: z.number().int().describe('Simulated actions in all.'),
    campaigns: z.number().int().describe('Campaigns acted on at least once.'),
  }),
});
