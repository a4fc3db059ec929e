import * as z from 'zod';
import { userIdSchema } from '../../shared/schemas/common.ts';
import { crmEventsSchema, eventCheckSchema } from '../../shared/schemas/conversions.ts';

/** The operation's own request and answer schemas: the handler validates with them, api.ts documents them. */
export const sendConversionsRequest = z.strictObject({
  userId: userIdSchema,
  events: crmEventsSchema.describe('1–10,000 CRM events; each eventId once in a call.'),
  validateOnly: z.boolean().optional().describe('Check only: 200 with each event’s fate per platform; nothing is sent or stored.'),
});

export const sendConversionsResultSchema = z.object({
  jobId: z.string().describe('The `conversions` job: get_job follows it; its end comes as conversions_job.succeeded or .failed.'),
  status: z.literal('queued'),
});

export const checkConversionsResultSchema = z.object({ events: z.array(eventCheckSchema) });
