import { settingsResultSchema } from '../../shared/schemas/tenant.ts';
import { updateSettingsRequest } from './schema.ts';
import type { OperationDoc } from '../../shared/schemas/operation-doc.ts';

/** What the OpenAPI document says of this operation. */
export const api: OperationDoc = {
  summary: 'Update the tenant’s settings',
  description:
    'A field left out keeps its value; `webhook: null` removes the webhook. Redirect URIs are compared as exact strings (at most 20; https:, or http: for localhost). The webhook URL must be https: and resolve to public addresses. The first time a webhook is set, or with `rotateWebhookSecret: true`, the answer carries `webhookSecret` once. `agents` sets what AI agents may do over /mcp: `writes` is `confirm` (the default), `apply` or `off`, and `allowedOrigins` the browser origins that may call it.',
  tag: 'Tenant',
  request: updateSettingsRequest,
  result: settingsResultSchema,
  requestExample: {
    redirectUris: ['https://app.example.com/connected'],
    webhook: { url: 'https://app.example.com/webhooks' },
    agents: { allowedOrigins: ['https://app.example.com'] },
  },
  resultExample: {
    settings: {
      redirectUris: ['https://app.example.com/connected'],
      webhook: {
        url: 'https://app.example.com/webhooks',
        events: ['connection.connected', 'connection.reconnect_required', 'connection.disconnected', 'audience_job.succeeded', 'audience_job.failed'],
      },
      agents: { writes: 'confirm', allowedOrigins: ['https://app.example.com'] },
    },
    webhookSecret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  },
};
