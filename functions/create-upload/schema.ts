import * as z from 'zod';
import { userIdSchema } from '../../shared/schemas/common.ts';
import { config } from '../../shared/core/config.ts';
import { CONTENT_TYPES, MAX_IMAGE_BYTES } from '../../shared/media/kinds.ts';

/** The operation's own request and answer schemas: the handler validates with them, api.ts documents them. */
const PURPOSES = ['contact_list', 'image', 'video'] as const;

export const createUploadRequest = z
  .strictObject({
    userId: userIdSchema,
    fileName: z.string().trim().min(1, 'must not be empty').max(255),
    contentLength: z
      .number({ error: 'must be the file’s size in bytes (a number)' })
      .int('must be a whole number of bytes')
      .positive('must be at least 1 byte')
      .describe('The file’s exact size in bytes; the URL accepts exactly this many (a contact list or a video at most 1 GiB, an image 30 MiB).'),
    purpose: z
      .enum(PURPOSES)
      .default('contact_list')
      .describe('What the file is for: a contact list for operations 7 and 8 (the default), or an image or video for upload_ad_media.'),
    contentType: z
      .enum([...CONTENT_TYPES.image, ...CONTENT_TYPES.video, 'text/csv'])
      .optional()
      .describe(
        'The file’s type, signed into the URL: required for an image (image/jpeg, image/png, image/gif) or a video (video/mp4, video/quicktime); a contact list is text/csv.',
      ),
  })
  .superRefine((input, context) => {
    const allowed: readonly string[] = input.purpose === 'contact_list' ? ['text/csv'] : CONTENT_TYPES[input.purpose];
    if (input.purpose !== 'contact_list' && input.contentType === undefined)
      context.addIssue({ code: 'custom', path: ['contentType'], message: `is required for an ${input.purpose}: one of ${allowed.join(', ')}` });
    else if (input.contentType !== undefined && !allowed.includes(input.contentType))
      context.addIssue({ code: 'custom', path: ['contentType'], message: `must be one of ${allowed.join(', ')} for purpose ${input.purpose}` });
    const max = input.purpose === 'image' ? MAX_IMAGE_BYTES : config().UPLOAD_MAX_BYTES;
    if (input.contentLength > max)
      context.addIssue({
        code: 'custom',
        path: ['contentLength'],
        message: `must be at most ${max} bytes (${input.purpose === 'image' ? '30 MiB' : `${(max / 1024 ** 3).toFixed(2).replace(/\.?0+$/, '')} GiB`}) for ${input.purpose === 'contact_list' ? 'a contact list' : `an ${input.purpose}`}`,
      });
  });

export const uploadTicketSchema = z.object({
  uploadId: z.string(),
  url: z.string().describe('A presigned S3 URL: PUT the file there, with the headers below, within 15 minutes.'),
  method: z.literal('PUT'),
  headers: z.record(z.string(), z.string()).describe('Send exactly these headers with the PUT (Content-Type and Content-Length are signed).'),
  expiresAt: z.string().describe('When the URL stops accepting the file (ISO 8601).'),
});
