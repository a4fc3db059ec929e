import * as z from 'zod';
import { config } from '../core/config.ts';
import { userIdSchema } from './common.ts';

/** docs/decisions.md "Uploads and audience jobs": direct uploads and the jobs that read them. */
export const uploadIdSchema = z.string().min(1).max(64).describe('The uploadId from /uploads/create_upload, once its file is PUT.');

export const createUploadRequest = z.strictObject({
  userId: userIdSchema,
  fileName: z.string().trim().min(1, 'must not be empty').max(255),
  contentLength: z
    .number({ error: 'must be the file’s size in bytes (a number)' })
    .int('must be a whole number of bytes')
    .positive('must be at least 1 byte')
    .superRefine((value, context) => {
      const max = config().UPLOAD_MAX_BYTES;
      if (value > max)
        context.addIssue({ code: 'custom', message: `must be at most ${max} bytes (${(max / 1024 ** 3).toFixed(2).replace(/\.?0+$/, '')} GiB)` });
    })
    .describe('The file’s exact size in bytes; the URL accepts exactly this many (at most 1 GiB).'),
});

export const uploadTicketSchema = z.object({
  uploadId: z.string(),
  url: z.string().describe('A presigned S3 URL: PUT the file there, with the headers below, within 15 minutes.'),
  method: z.literal('PUT'),
  headers: z.record(z.string(), z.string()).describe('Send exactly these headers with the PUT (Content-Type and Content-Length are signed).'),
  expiresAt: z.string().describe('When the URL stops accepting the file (ISO 8601).'),
});

export const getJobRequest = z.strictObject({ jobId: z.string().min(1).max(64) });

const jobErrorSchema = z.object({ code: z.string(), message: z.string() });
export const jobViewSchema = z.object({
  jobId: z.string(),
  type: z.enum(['social_audience', 'professional_audience']),
  userId: z.string(),
  status: z.enum(['queued', 'running', 'succeeded', 'failed']),
  progress: z
    .object({ bytesRead: z.number(), totalBytes: z.number(), rowsRead: z.number(), rowsSent: z.number(), batchesSent: z.number() })
    .describe('rowsRead counts data rows (not the header) as the file is checked; rowsSent the rows the platform acknowledged. Counters only move forward.'),
  result: z
    .record(z.string(), z.unknown())
    .optional()
    .describe('The operation’s own result: operation 7’s audience fields with the platform’s final counts; operation 8’s `audience.csvFileId`.'),
  error: jobErrorSchema.optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const jobStartedSchema = z.object({ jobId: z.string(), status: z.enum(['queued', 'running']) });
