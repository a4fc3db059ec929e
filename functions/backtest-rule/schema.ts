import * as z from 'zod';
import { shapeError, userIdSchema } from '../../shared/schemas/common.ts';
import { evaluationSchema, ruleDefinitionSchema, ruleIdSchema } from '../../shared/schemas/rules.ts';

/** The operation's own request and answer schemas: the handler validates with them, api.ts documents them. */
const backtestFields = {
  userId: userIdSchema,
  days: z.number().int().min(1).max(30).describe('How many whole days before today to try it on (1–30).'),
};

/** Exactly one of ruleId and rule: the document says so (oneOf), and so do a typed client's types. */
export const backtestRuleRequest = z
  .xor(
    [
      z.strictObject({ ...backtestFields, ruleId: ruleIdSchema.describe('A stored rule; or send `rule` instead.'), rule: z.never().optional() }),
      z.strictObject({
        ...backtestFields,
        ruleId: z.never().optional(),
        rule: ruleDefinitionSchema.describe('A rule not created yet, as create_rule takes it (without userId).'),
      }),
    ],
    { error: shapeError('send exactly one of ruleId (a stored rule) and rule (a rule not created yet)') },
  )
  .transform((input): { userId: string; days: number; ruleId?: string; rule?: z.output<typeof ruleDefinitionSchema> } => input);

export const backtestResultSchema = z.object({
  days: z
    .array(z.object({ date: z.string().describe('A day of the ad account’s time zone, oldest first.'), evaluations: z.array(evaluationSchema) }))
    .describe('Each day as the scheduler would have run it: every campaign’s metrics, whether it matched, the simulated action or why none.'),
  summary: z.object({
    actions: z.number().int().describe('Simulated actions in all.'),
    campaigns: z.number().int().describe('Campaigns acted on at least once.'),
  }),
});
