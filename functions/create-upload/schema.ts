import * as z from 'zod';
import { shapeError, userIdSchema } from '../../shared/schemas/common.ts';
import { config } from '../../shared/core/config.ts';
import { CONTENT_TYPES, MAX_IMAGE_BYTES } from '../../shared/media/kinds.ts';

/** The operation's own request and answer schemas: the handler validates with them, api.ts documents them. */
const uploadFields = {
  userId: userIdSchema,
  fileName: z.string().trim().min(1, 'must not be empty').max(255),
  contentLength: z
    .number({ error: 'must be the file’s size in bytes (a number)' })
    .int('must be a whole number of bytes')
    .positive('must be at least 1 byte')
    .describe('The file’s exact size in bytes; the URL accepts exactly this many (a contact list or a video at most 1 GiB, an image 30 MiB).'),
};

/**
 * What the file is for, and its type, as one of three shapes (the document's oneOf, a typed client's
 * union): a contact list (the default) is text/csv; an image or a video names its type, which is
 * signed into the URL.
 */
export const createUploadRequest = z
  .discriminatedUnion(
    'purpose',
    [
      z.strictObject({
        ...uploadFields,
        purpose: z.literal('contact_list').default('contact_list').describe('A contact list for operations 7 and 8 (the default).'),
        contentType: z.literal('text/csv', { error: 'must be text/csv for a contact list (or left out)' }).optional(),
      }),
      z.strictObject({
        ...uploadFields,
        purpose: z.literal('image').describe('An image for upload_ad_media.'),
        contentType: z.enum(CONTENT_TYPES.image, { error: 'is required for an image: image/jpeg, image/png or image/gif' }),
      }),
      z.strictObject({
        ...uploadFields,
        purpose: z.literal('video').describe('A video for upload_ad_media.'),
        contentType: z.enum(CONTENT_TYPES.video, { error: 'is required for a video: video/mp4 or video/quicktime' }),
      }),
    ],
    {
      error: shapeError(
        'purpose must be contact_list (the default), image or video, and contentType agree with it: a contact list is text/csv, an image image/jpeg, image/png or image/gif, a video video/mp4 or video/quicktime',
      ),
    },
  )
  .superRefine((input, context) => {
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
