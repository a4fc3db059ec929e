import { uploadProfessionalAudience } from './use-cases/upload-professional-audience.ts';
import { multipartBody } from '../shared/http/middleware/multipart-body.ts';
import { idempotent } from '../shared/http/idempotency.ts';
import { loadAppCredentials } from '../shared/app-credentials.ts';
import { connectionHealth } from '../shared/http/middleware/connection-health.ts';
import { defineOperation } from '../shared/http/operation.ts';
import { declaration } from './create-professional-csv-audience.declaration.ts';
import { createProfessionalCsvAudienceRequest, PROFESSIONAL_AUDIENCE_FIELDS } from '../shared/schemas/audiences.ts';

export const handler = defineOperation({
  declaration,
  credentials: loadAppCredentials,
  connectionHealth,
  idempotency: idempotent(),
  request: createProfessionalCsvAudienceRequest,
  body: multipartBody({ fileField: 'csv', fields: PROFESSIONAL_AUDIENCE_FIELDS }),
  run: ({ input, tenantId, user, context }) => uploadProfessionalAudience({ ...input, tenantId, user, context }),
});
