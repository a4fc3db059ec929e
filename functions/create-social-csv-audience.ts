import { uploadSocialAudience } from './use-cases/upload-social-audience.ts';
import { multipartBody } from '../shared/http/middleware/multipart-body.ts';
import { idempotent } from '../shared/http/idempotency.ts';
import { loadAppCredentials } from '../shared/app-credentials.ts';
import { connectionHealth } from '../shared/http/middleware/connection-health.ts';
import { defineOperation } from '../shared/http/operation.ts';
import { declaration } from './create-social-csv-audience.declaration.ts';
import { config } from '../shared/config.ts';
import { createSocialCsvAudienceRequest, SOCIAL_AUDIENCE_FIELDS } from '../shared/schemas/audiences.ts';

export const handler = defineOperation({
  declaration,
  credentials: loadAppCredentials,
  connectionHealth,
  request: createSocialCsvAudienceRequest,
  body: multipartBody({ fileField: 'csvFile', fields: SOCIAL_AUDIENCE_FIELDS }),
  idempotency: idempotent({ inProgressMs: () => config().UPLOAD_LEASE_MS }), // the upload's own lease keeps two runs apart
  run: ({ input, tenantId, user, context, idempotencyKey }) => uploadSocialAudience({ ...input, tenantId, user, context, idempotencyKey }),
});
