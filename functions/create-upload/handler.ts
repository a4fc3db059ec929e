import { recordAuditEvent } from '../../shared/store/audit-event-writes.ts';
import { defineOperation } from '../../shared/http/operation.ts';
import { createUploadRequest } from './schema.ts';
import { createUpload } from '../../shared/uploads/direct-uploads.ts';
import { declaration } from './declaration.ts';

/** POST /uploads/create_upload: a URL to PUT a contact list of any size, or an image or video for an ad account, to (docs/decisions.md "Uploads and audience jobs"). */
export const handler = defineOperation({
  declaration,
  recorder: recordAuditEvent,
  request: createUploadRequest,
  run: ({ input, tenantId, user }) =>
    createUpload(tenantId, user.userId, {
      fileName: input.fileName,
      contentLength: input.contentLength,
      purpose: input.purpose,
      contentType: input.contentType ?? 'text/csv',
    }),
});
