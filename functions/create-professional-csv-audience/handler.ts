import { uploadProfessionalAudience } from '../use-cases/audiences/professional-upload-in-request.ts';
import { config } from '../../shared/core/config.ts';
import { startProfessionalAudienceJob } from '../use-cases/audiences/professional-start-audience-job.ts';
import { multipartOrJsonBody } from '../../shared/http/middleware/multipart-body.ts';
import { idempotent } from '../../shared/http/idempotency.ts';
import { defineOperation } from '../../shared/http/operation.ts';
import { PLATFORM_WRITE } from '../../shared/http/operation-kits/platform-write.ts';
import { declaration } from './declaration.ts';
import { createProfessionalAudienceFromUploadRequest, createProfessionalCsvAudienceRequest, PROFESSIONAL_AUDIENCE_FIELDS } from './schema.ts';

export const handler = defineOperation({
  declaration,
  ...PLATFORM_WRITE,
  idempotency: idempotent({ inProgressMs: () => config().JOB_LEASE_MS }), // the job's own lease keeps two runs apart
  request: createProfessionalCsvAudienceRequest,
  jsonRequest: createProfessionalAudienceFromUploadRequest,
  body: multipartOrJsonBody({ fileField: 'csv', fields: PROFESSIONAL_AUDIENCE_FIELDS }),
  run: ({ input, tenantId, user, context, idempotencyKey, audit }): Promise<object> =>
    'uploadId' in input
      ? startProfessionalAudienceJob({ ...input, tenantId, user, context, audit }) // a file of any size, sent by the job worker
      : uploadProfessionalAudience({ ...input, tenantId, user, context, idempotencyKey }),
});
