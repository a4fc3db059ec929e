import * as z from 'zod';

/** What a leads_backfill job stores (backfill-job.ts runs it; get_job shows the checkpoint as its progress). */
export const backfillRequestSchema = z.object({ platform: z.enum(['social', 'professional']), target: z.string(), sinceMs: z.number(), untilMs: z.number() });
export const backfillCheckpointSchema = z.object({ leadsFound: z.number(), leadsDelivered: z.number() });
