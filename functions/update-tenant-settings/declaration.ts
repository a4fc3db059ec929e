import { handlerBeside, type FunctionDeclaration } from '../../shared/core/function-declaration.ts';

export const declaration: FunctionDeclaration = {
  operation: 'update_settings',
  method: 'POST',
  path: '/tenant/update_settings',
  entry: handlerBeside(import.meta.url),
  destructive: true,
  writes: true,
  sealsConnections: true,
  // the settings' own changes; a secret rotation is recorded as webhook_secret.rotated beside it (use-cases/tenant-settings.ts)
  audit: { action: 'settings.updated', target: () => ({ type: 'settings', id: 'tenant' }) },
};
