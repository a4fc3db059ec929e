import * as z from 'zod';
import { userIdSchema } from '../../shared/schemas/common.ts';
import { config } from '../../shared/core/config.ts';

/** The operation's own request and answer schemas: the handler validates with them, api.ts documents them. */
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
