import { idempotent } from '../../shared/http/idempotency.ts';
import { connectionHealth } from '../../shared/http/middleware/connection-health.ts';
import { defineOperation } from '../../shared/http/operation.ts';
import { loadAppCredentials } from '../../shared/secrets/app-credentials.ts';
import { recordAuditEvent } from '../../shared/store/audit-event-writes.ts';
import { uploadProfessionalAdMedia } from '../use-cases/ad-media.ts';
import { declaration } from './declaration.ts';
import { uploadAdMediaRequest } from './schema.ts';

/** POST /professional/upload_ad_media: an image or a video of the user's upload (an image also at a URL) into their ad account's organization. */
export const handler = defineOperation({
  declaration,
  recorder: recordAuditEvent,
  credentials: loadAppCredentials,
  connectionHealth,
  idempotency: idempotent(),
  request: uploadAdMediaRequest,
  run: ({ input, tenantId, user, context, audit }) => uploadProfessionalAdMedia({ tenantId, user, input, context, audit }),
});
