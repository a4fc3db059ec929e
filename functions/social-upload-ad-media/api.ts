import type { OperationDoc } from '../../shared/schemas/operation-doc.ts';
import { adMediaResult, uploadAdMediaRequest } from './schema.ts';

/** What the OpenAPI document says of this operation. */
export const api: OperationDoc = {
  summary: 'Upload an image or a video into the user’s ad account',
  description:
    'Exactly one of `uploadId` (an upload of this user made with purpose `image` or `video` and its `contentType`, its file PUT) or `url` (http(s), a public address: an image of at most 30 MiB, a video of at most 1 GiB). The kind is read from the file’s first bytes, never its name: a file that is no JPEG, PNG or GIF image or MP4/QuickTime video is 400 UNSUPPORTED_MEDIA with nothing sent. An image answers at once: `media.id` is its hash, what an ad creative names. A video (up to 1 GiB) answers `{jobId, status}` at once: the job (first fetching a video given by `url` into storage, through the same guarded request) sends it in the platform’s chunks, follows its processing, and ends `succeeded` with `result.media` `{type: VIDEO, id, status: ready}` or `failed` with MEDIA_PROCESSING_FAILED (/jobs/get_job; the `ad_media.ready` / `ad_media.failed` webhooks). An upload makes one platform image or video however often it is sent; `Idempotency-Key` is honoured.',
  tag: 'Ad media',
  request: uploadAdMediaRequest,
  result: adMediaResult,
  requestExample: { userId: 'demo-user', uploadId: 'upl_5f0c3a1e9b7d4c2a8e6f1b3d5c7a9e0f', name: 'Spring hero' },
  resultExample: {
    media: {
      type: 'IMAGE',
      id: '8c1f0e4b2a7d9c3e5f6a1b2c3d4e5f60',
      url: 'https://scontent.xx.fbcdn.net/v/t45.1600-4/8c1f0e4b2a7d9c3e5f6a1b2c3d4e5f60_n.png',
      width: 1200,
      height: 628,
      status: 'ready',
    },
  },
};
