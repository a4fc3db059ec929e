import * as z from 'zod';
import { userIdSchema } from '../../shared/schemas/common.ts';
import { evaluationSchema, ruleDefinitionSchema, ruleIdSchema } from '../../shared/schemas/rules.ts';

/** The operation's own request and answer schemas: the handler validates with them, api.ts documents them. */
export const backtestRuleRequest = z
  .strictObject({
    userId: userIdSchema,
    ruleId: ruleIdSchema.optional().describe('A stored rule; or send `rule` instead.'),
    rule: ruleDefinitionSchema.optional().describe('A rule not created yet, as create_rule takes it (without userId).'),
    days: z.number().int().min(1).max(30).describe('How many whole days before today to try it on (1–30).'),
  })
  .refine((input) => (input.ruleId === undefined) !== (input.rule === undefined), { path: ['ruleId'], message: 'send either ruleId or rule, not both' });

export const backtestResultSchema = z.object({
  days: z
    .array(z.object({ date: z.string().describe('A day of the ad account’s time zone, oldest first.'), evaluations: z.array(evaluationSchema) }))
    .describe('Each day as the scheduler would have run it: every campaign’s metrics, whether it matched, the simulated action or why none.'),
  summary: z.object({
    actions: z.number().int().describe('Simulated actions in all.'),
    campaigns: z.number().int().describe('Campaigns acted on at least once.'),
  }),
});
