import { NotFound } from '../shared/errors.ts';
import { defineOperation } from '../shared/http/operation.ts';
import { sendTestWebhookRequest } from '../shared/schemas/tenant.ts';
import { emitWebhookEvent } from '../shared/webhooks/emit.ts';
import { declaration } from './send-test-webhook.declaration.ts';

export const handler = defineOperation({
  declaration,
  request: sendTestWebhookRequest,
  user: false,
  run: async ({ tenantId }) => {
    const event = await emitWebhookEvent(tenantId, 'webhook.test', { message: 'A test event: your webhook endpoint is reachable and verifies our signature.' });
    if (!event) throw new NotFound('This tenant has no active webhook; set one with /tenant/update_settings.');
    return { event: { id: event.id, type: event.type, createdAt: event.createdAt, status: event.status } };
  },
});
