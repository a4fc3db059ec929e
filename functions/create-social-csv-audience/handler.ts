import { uploadSocialAudience } from '../use-cases/audiences/social-upload-in-request.ts';
import { startSocialAudienceJob } from '../use-cases/audiences/social-start-audience-job.ts';
import { multipartOrJsonBody } from '../../shared/http/middleware/multipart-body.ts';
import { idempotent } from '../../shared/http/idempotency.ts';
import { defineOperation } from '../../shared/http/operation.ts';
import { PLATFORM_WRITE } from '../../shared/http/operation-kits/platform-write.ts';
import { declaration } from './declaration.ts';
import { config } from '../../shared/core/config.ts';
import { createSocialAudienceFromUploadRequest, createSocialCsvAudienceRequest, SOCIAL_AUDIENCE_FIELDS } from './schema.ts';

export const handler = defineOperation({
  declaration,
  ...PLATFORM_WRITE,
  request: createSocialCsvAudienceRequest,
  jsonRequest: createSocialAudienceFromUploadRequest,
  body: multipartOrJsonBody({ fileField: 'csvFile', fields: SOCIAL_AUDIENCE_FIELDS }),
  idempotency: idempotent({ inProgressMs: () => config().JOB_LEASE_MS }), // the job's own lease keeps two runs apart
  run: ({ input, tenantId, user, context, idempotencyKey, audit }): Promise<object> =>
    'uploadId' in input
      ? startSocialAudienceJob({ ...input, tenantId, user, context, audit }) // a file of any size, sent by the job worker
      : uploadSocialAudience({ ...input, tenantId, user, context, idempotencyKey }),
});
