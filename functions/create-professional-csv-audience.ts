import { uploadProfessionalAudience } from './use-cases/upload-professional-audience.ts';
import { multipartBody } from '../shared/http/middleware/multipart-body.ts';
import { defineOperation } from '../shared/http/operation.ts';
import { createProfessionalCsvAudienceRequest, PROFESSIONAL_AUDIENCE_FIELDS } from '../shared/schemas/audiences.ts';

export const handler = defineOperation({
  name: 'create_csv_audience',
  request: createProfessionalCsvAudienceRequest,
  body: multipartBody({ fileField: 'csv', fields: PROFESSIONAL_AUDIENCE_FIELDS }),
  idempotent: true,
  run: ({ input, tenantId, user, context }) => uploadProfessionalAudience({ ...input, tenantId, user, context }),
});
