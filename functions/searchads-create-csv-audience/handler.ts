import { config } from '../../shared/core/config.ts';
import { multipartOrJsonBody } from '../../shared/http/middleware/multipart-body.ts';
import { idempotent } from '../../shared/http/idempotency.ts';
import { defineOperation } from '../../shared/http/operation.ts';
import { PLATFORM_WRITE } from '../../shared/http/operation-kits/platform-write.ts';
import { startSearchadsAudienceFromFile, startSearchadsAudienceJob } from '../use-cases/audiences/start-searchads-audience.ts';
import { declaration } from './declaration.ts';
import { createSearchadsAudienceFromUploadRequest, createSearchadsCsvAudienceRequest, SEARCHADS_AUDIENCE_FIELDS } from './schema.ts';

/** POST /searchads/create_csv_audience: a contact list into a Customer Match list, by a job (docs/google-audiences.md). */
export const handler = defineOperation({
  declaration,
  ...PLATFORM_WRITE,
  request: createSearchadsCsvAudienceRequest,
  jsonRequest: createSearchadsAudienceFromUploadRequest,
  body: multipartOrJsonBody({ fileField: 'csvFile', fields: SEARCHADS_AUDIENCE_FIELDS }),
  idempotency: idempotent({ inProgressMs: () => config().JOB_LEASE_MS }),
  run: ({ input, tenantId, user, context, audit }): Promise<object> =>
    'uploadId' in input
      ? startSearchadsAudienceJob({ ...input, tenantId, user, context, audit }) // a file of any size, sent with create_upload
      : startSearchadsAudienceFromFile({ ...input, tenantId, user, context, audit }),
});
