import { createUploadRequest, uploadTicketSchema } from './schema.ts';
import { day, type OperationDoc } from '../../shared/schemas/operation-doc.ts';

/** What the OpenAPI document says of this operation. */
export const api: OperationDoc = {
  summary: 'Create an upload (a list of any size, an image or a video)',
  description:
    'A presigned URL to PUT a file to: a contact list of up to 1 GiB for operations 7 and 8 (`purpose` contact_list, the default), or an image (up to 30 MiB) or video (up to 1 GiB) for `upload_ad_media`, with its `contentType`. PUT exactly `contentLength` bytes with the returned `headers` within 15 minutes (a body of another size or type is refused), then call the operation with JSON `{…its fields, "uploadId"}`. The file is kept at most 2 days, and a contact list is deleted once its audience is built.',
  tag: 'Audiences',
  request: createUploadRequest,
  result: uploadTicketSchema,
  requestExample: { userId: 'demo-user', fileName: 'subscribers.csv', contentLength: 17_000_000 },
  resultExample: {
    uploadId: 'upl_5f0c3a1e9b7d4c2a8e6f1b3d5c7a9e0f',
    url: 'https://ad-campaign-api-uploads.s3.amazonaws.com/uploads/tn_1/demo-user/upl_5f0c3a1e9b7d4c2a8e6f1b3d5c7a9e0f.csv?X-Amz-Algorithm=AWS4-HMAC-SHA256&…',
    method: 'PUT',
    headers: { 'content-type': 'text/csv', 'content-length': '17000000' },
    expiresAt: `${day(0)}T10:15:00.000Z`,
  },
};
