import { idempotent } from '../../shared/http/idempotency.ts';
import { connectionHealth } from '../../shared/http/middleware/connection-health.ts';
import { defineOperation } from '../../shared/http/operation.ts';
import { loadAppCredentials } from '../../shared/secrets/app-credentials.ts';
import { recordAuditEvent } from '../../shared/store/audit-event-writes.ts';
import { uploadSocialAdMedia } from '../use-cases/ad-media.ts';
import { declaration } from './declaration.ts';
import { uploadAdMediaRequest } from './schema.ts';

/** POST /social/upload_ad_media: an image of the user's upload, or at a URL, into their ad account. */
export const handler = defineOperation({
  declaration,
  recorder: recordAuditEvent,
  credentials: loadAppCredentials,
  connectionHealth,
  idempotency: idempotent(),
  request: uploadAdMediaRequest,
  run: ({ input, tenantId, user, context, audit }) => uploadSocialAdMedia({ tenantId, user, input, context, audit }),
});
