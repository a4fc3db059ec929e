import * as z from 'zod';
import { userIdSchema } from './common.ts';
import { jobStatusSchema, uploadIdSchema } from './uploads.ts';

/** upload_ad_media on either platform (docs/decisions.md, "Media into an ad account"): one request, one answer. */
export const uploadAdMediaRequest = z
  .strictObject({
    userId: userIdSchema,
    uploadId: uploadIdSchema.optional().describe('An upload of this user made with purpose image (or video), its file PUT.'),
    url: z
      .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
      .max(2048)
      .optional()
      .describe(
        'An https URL of the file on a public address (plain http, and redirects to it, only to the local stack’s loopback): an image (at most 30 MiB) is fetched at once; a video (at most 1 GiB) by its job.',
      ),
    name: z.string().trim().min(1).max(100).optional().describe('The name the ad account shows for it.'),
  })
  .refine((input) => (input.uploadId === undefined) !== (input.url === undefined), { message: 'send exactly one of uploadId and url', path: ['uploadId'] });

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
