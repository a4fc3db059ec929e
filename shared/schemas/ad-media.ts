import * as z from 'zod';
import { shapeError, userIdSchema } from './common.ts';
import { jobStatusSchema, uploadIdSchema } from './uploads.ts';

/** upload_ad_media on either platform (docs/decisions.md "Media into an ad account"): one request, one answer. */
const mediaFields = {
  userId: userIdSchema,
  name: z.string().trim().min(1).max(100).optional().describe('The name the ad account shows for it.'),
};
const mediaBase = z.strictObject(mediaFields);

/** Exactly one of uploadId and url: the document says so (oneOf), and so do a typed client's types. */
export const uploadAdMediaRequest = z
  .xor(
    [
      z.strictObject({
        ...mediaFields,
        url: z.never().optional(),
        uploadId: uploadIdSchema.describe('An upload of this user made with purpose image (or video), its file PUT.'),
      }),
      z.strictObject({
        ...mediaFields,
        uploadId: z.never().optional(),
        url: z
          .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
          .max(2048)
          .describe(
            'An https URL of the file on a public address (plain http, and redirects to it, only to the local stack’s loopback): an image (at most 30 MiB) is fetched at once; a video (at most 1 GiB) by its job.',
          ),
      }),
    ],
    { error: shapeError('send exactly one of uploadId and url') },
  )
  .transform((input): z.output<typeof mediaBase> & { uploadId?: string; url?: string } => input);

export const adImageResult = z.object({
  media: z.object({
    type: z.literal('IMAGE'),
    id: z
      .string()
      .describe(
        'Social: the image’s hash, what an ad creative names (get_ad_account_media lists it after). Professional: the image URN, what a creative names.',
      ),
    url: z.string().optional().describe('Social: a temporary URL of the image (signed: never put it in a creative).'),
    width: z.number().int(),
    height: z.number().int(),
    status: z.enum(['ready', 'processing']).describe('Professional: `processing` until the platform says AVAILABLE (a launch waits for it).'),
  }),
});

/** A video: the job that sends it in chunks and follows its processing (get_job; the ad_media.ready / ad_media.failed webhooks). */
export const adVideoJobResult = z.object({
  jobId: z.string(),
  status: jobStatusSchema.describe('`queued` for a new job; a call for an upload whose job already began answers that job as it is now.'),
});

export const adMediaResult = z.union([adImageResult, adVideoJobResult]);
