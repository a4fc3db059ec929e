import { settingsResultSchema } from '../../shared/schemas/tenant.ts';
import { getSettingsRequest } from './schema.ts';
import type { OperationDoc } from '../../shared/schemas/operation-doc.ts';

/** What the OpenAPI document says of this operation. */
export const api: OperationDoc = {
  summary: 'Get the tenant’s settings',
  description: 'The redirect URIs connect links may return to, and the webhook (never its secret).',
  tag: 'Tenant',
  request: getSettingsRequest,
  result: settingsResultSchema,
  requestExample: {},
  resultExample: {
    settings: {
      redirectUris: ['https://app.example.com/connected'],
      webhook: { url: 'https://app.example.com/webhooks', events: ['connection.connected', 'audience_job.succeeded'] },
      agents: { writes: 'confirm', allowedOrigins: [] },
    },
  },
};
