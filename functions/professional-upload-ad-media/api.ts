import type { OperationDoc } from '../../shared/schemas/operation-doc.ts';
import { adMediaResult, uploadAdMediaRequest } from './schema.ts';

/** What the OpenAPI document says of this operation. */
export const api: OperationDoc = {
  summary: 'Upload an image or a video into the user’s professional ad account',
  description:
    'The media belong to the organization the ad account advertises for (its `reference`) and show in the account’s library; the connection needs the `w_organization_social` permission (SCOPE_MISSING names it otherwise: a new connect link asks for it). Exactly one of `uploadId` (an upload of this user made with purpose `image` or `video`, its file PUT) or `url` (an image at a public address, at most 30 MiB). The kind is read from the file’s first bytes: anything but a JPEG, PNG or GIF image or an MP4/QuickTime video is 400 UNSUPPORTED_MEDIA with nothing sent. An image answers at once: `media.id` is its URN, `status` `processing` until the platform says AVAILABLE. A video answers `{jobId, status}`: the job sends the platform’s upload parts in order, keeps each part’s ETag, finalizes, follows processing, and ends `succeeded` with `result.media` `{type: VIDEO, id: <URN>, status: ready}` or `failed` with MEDIA_PROCESSING_FAILED (/jobs/get_job; `ad_media.ready` / `ad_media.failed` webhooks). One platform object per upload; `Idempotency-Key` is honoured.',
  tag: 'Ad media',
  refusals: ['SCOPE_MISSING'],
  request: uploadAdMediaRequest,
  result: adMediaResult,
  requestExample: { userId: 'demo-user', uploadId: 'upl_5f0c3a1e9b7d4c2a8e6f1b3d5c7a9e0f', name: 'Spring hero' },
  resultExample: { media: { type: 'IMAGE', id: 'urn:li:image:D4E10AQFakeImg0001', width: 1200, height: 627, status: 'processing' } },
};
