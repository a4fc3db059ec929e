import { uploadSocialAudience } from './use-cases/upload-social-audience.ts';
import { multipartBody } from '../shared/http/middleware/multipart-body.ts';
import { defineOperation } from '../shared/http/operation.ts';
import { config } from '../shared/config.ts';
import { createSocialCsvAudienceRequest, SOCIAL_AUDIENCE_FIELDS } from '../shared/schemas/audiences.ts';

export const handler = defineOperation({
  name: 'create_social_csv_audience',
  request: createSocialCsvAudienceRequest,
  body: multipartBody({ fileField: 'csvFile', fields: SOCIAL_AUDIENCE_FIELDS }),
  idempotent: true,
  idempotencyInProgressMs: () => config().UPLOAD_LEASE_MS, // the upload's own lease keeps two runs apart
  run: ({ input, tenantId, user, context, idempotencyKey }) => uploadSocialAudience({ ...input, tenantId, user, context, idempotencyKey }),
});
