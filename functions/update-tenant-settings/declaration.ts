import { handlerBeside, type FunctionDeclaration } from '../../shared/core/function-declaration.ts';

export const declaration: FunctionDeclaration = {
  operation: 'update_settings',
  method: 'POST',
  path: '/tenant/update_settings',
  entry: handlerBeside(import.meta.url),
  writes: true,
  sealsConnections: true,
  audit: {
    // a call that only rotates the secret is that; any other change is a settings update (its changes name the rotation too)
    action: (input) =>
      input.rotateWebhookSecret && input.redirectUris === undefined && input.webhook === undefined ? 'webhook_secret.rotated' : 'settings.updated',
    target: (input) =>
      input.rotateWebhookSecret && input.redirectUris === undefined && input.webhook === undefined
        ? { type: 'webhook_secret', id: 'webhook' }
        : { type: 'settings', id: 'tenant' },
  },
};
