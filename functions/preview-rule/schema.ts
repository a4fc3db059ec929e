import * as z from 'zod';
import { userIdSchema } from '../../shared/schemas/common.ts';
import { evaluationSchema, ruleIdSchema, ruleDefinitionSchema } from '../../shared/schemas/rules.ts';

/** The operation's own request and answer schemas: the handler validates with them, api.ts documents them. */
export const previewRuleRequest = z
  .strictObject({
    userId: userIdSchema,
    ruleId: ruleIdSchema.optional().describe('A stored rule; or send `rule` instead.'),
    rule: ruleDefinitionSchema.optional().describe('A rule not created yet, as create_rule takes it (without userId).'),
  })
  .refine((input) => (input.ruleId === undefined) !== (input.rule === undefined), { path: ['ruleId'], message: 'send either ruleId or rule, not both' });

export const previewResultSchema = z.object({ evaluations: z.array(evaluationSchema) });
