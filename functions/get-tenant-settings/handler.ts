import { defineOperation } from '../../shared/http/operation.ts';
import { getSettingsRequest } from './schema.ts';
import { loadTenantSettings, settingsView } from '../../shared/store/tenant-settings.ts';
import { declaration } from './declaration.ts';

export const handler = defineOperation({
  declaration,
  request: getSettingsRequest,
  user: false,
  run: async ({ tenantId }) => ({ settings: settingsView(await loadTenantSettings(tenantId)) }),
});
