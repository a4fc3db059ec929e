import * as z from 'zod';
import { userIdSchema } from '../../shared/schemas/common.ts';
import { STAGE_NAME } from '../../shared/schemas/conversion-values.ts';
import { conversionValueSchema } from '../../shared/schemas/conversions.ts';

/** The operation's own request and answer schemas: the handler validates with them, api.ts documents them. */
export const reportOutcomeRequest = z.strictObject({
  userId: userIdSchema,
  leadId: z.string().min(1).max(128),
  stage: z
    .string()
    .regex(STAGE_NAME, 'must be a stage name of the user’s funnel')
    .describe('A stage of the user’s funnel (set_stages), matched whatever its case.'),
  occurredAt: z.iso
    .datetime({ offset: true, error: 'must be an ISO 8601 date and time' })
    .optional()
    .describe('When the lead reached the stage (default now); at most 5 minutes ahead.'),
  value: conversionValueSchema.optional(),
});

export const reportOutcomeResultSchema = z.object({
  outcomeId: z.string().describe('The same for every report of this lead and stage.'),
  eventIds: z
    .array(z.string())
    .describe('The events it sends, earliest stage first (on the social platform, the stages before it not sent yet); /conversions/get_event follows each.'),
  status: z.literal('queued'),
});
