import { recordAuditEvent } from '../../shared/store/audit-event-writes.ts';
import { loadAppCredentials } from '../../shared/secrets/app-credentials.ts';
import { defineOperation } from '../../shared/http/operation.ts';
import { updateSettingsRequest } from './schema.ts';
import { declaration } from './declaration.ts';
import { updateTenantSettings } from '../use-cases/settings/tenant-settings.ts';

export const handler = defineOperation({
  declaration,
  recorder: recordAuditEvent,
  credentials: loadAppCredentials,
  request: updateSettingsRequest,
  user: false,
  run: ({ input, tenantId, audit }) => updateTenantSettings(tenantId, input, audit),
});
