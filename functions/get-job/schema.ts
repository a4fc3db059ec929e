import * as z from 'zod';

/** The operation's own request and answer schemas: the handler validates with them, api.ts documents them. */
export const getJobRequest = z.strictObject({ jobId: z.string().min(1).max(64) });

export { jobViewSchema } from '../../shared/schemas/jobs.ts';
