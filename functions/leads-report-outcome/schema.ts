import * as z from 'zod';
import { userIdSchema } from '../../shared/schemas/common.ts';
import { STAGE_NAME } from '../../shared/schemas/conversions.ts';

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
  value: z
    .strictObject({
      amount: z.string().regex(/^\d{1,12}(\.\d{1,4})?$/, 'must be a decimal amount such as 1250.00'),
      currency: z.string().regex(/^[A-Za-z]{3}$/, 'must be an ISO 4217 code'),
    })
    .optional()
    .describe('What the stage was worth (a deal won), in major units.'),
});

export const reportOutcomeResultSchema = z.object({
  outcomeId: z.string().describe('The same for every report of this lead and stage.'),
  eventIds: z
    .array(z.string())
    .describe('The events it sends, earliest stage first (on the social platform, the stages before it not sent yet); /conversions/get_event follows each.'),
  status: z.literal('queued'),
});
