import * as z from 'zod';

/** docs/decisions.md "Uploads and audience jobs": direct uploads and the jobs that read them. */
export const uploadIdSchema = z.string().min(1).max(64).describe('The uploadId from /uploads/create_upload, once its file is PUT.');

/** A job's status. A start that finds its upload's job already begun answers that job as it is now, finished or not. */
export const jobStatusSchema = z.enum(['queued', 'running', 'succeeded', 'failed']);

export const jobErrorSchema = z.object({ code: z.string(), message: z.string() });
