import { loadAppCredentials } from '../../shared/secrets/app-credentials.ts';
import { defineOperation } from '../../shared/http/operation.ts';
import { updateSettingsRequest } from '../../shared/schemas/tenant.ts';
import { declaration } from './declaration.ts';
import { updateTenantSettings } from '../use-cases/tenant-settings.ts';

export const handler = defineOperation({
  declaration,
  credentials: loadAppCredentials,
  request: updateSettingsRequest,
  user: false,
  run: ({ input, tenantId }) => updateTenantSettings(tenantId, input),
});
