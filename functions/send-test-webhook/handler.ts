import { recordAuditEvent } from '../../shared/store/audit-event-writes.ts';
import { NotFound, RateLimited } from '../../shared/core/errors.ts';
import { defineOperation } from '../../shared/http/operation.ts';
import { sendTestWebhookRequest } from './schema.ts';
import { takeFromWindow } from '../../shared/store/rate-limits.ts';
import { emitWebhookEvent } from '../../shared/webhooks/emit.ts';
import { declaration } from './declaration.ts';

/** A test event is for trying a receiver, not for load: 10 a minute per tenant. */
export const TEST_WEBHOOK_LIMIT = { name: 'send_test_webhook', limit: 10, windowSeconds: 60 };

export const handler = defineOperation({
  declaration,
  recorder: recordAuditEvent,
  request: sendTestWebhookRequest,
  user: false,
  run: async ({ tenantId }) => {
    const waitSeconds = await takeFromWindow(tenantId, TEST_WEBHOOK_LIMIT);
    if (waitSeconds !== undefined) throw new RateLimited(`This tenant sent ${TEST_WEBHOOK_LIMIT.limit} test events in the last minute.`, waitSeconds);
    const event = await emitWebhookEvent(tenantId, 'webhook.test', { message: 'A test event: your webhook endpoint is reachable and verifies our signature.' });
    if (!event) throw new NotFound('This tenant has no active webhook; set one with /tenant/update_settings.');
    return { event: { id: event.id, type: event.type, createdAt: event.createdAt, status: event.status } };
  },
});
