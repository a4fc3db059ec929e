import * as z from 'zod';

/** docs/decisions.md "Uploads and audience jobs": direct uploads and the jobs that read them. */
export const uploadIdSchema = z.string().min(1).max(64).describe('The uploadId from /uploads/create_upload, once its file is PUT.');

export const jobErrorSchema = z.object({ code: z.string(), message: z.string() });
