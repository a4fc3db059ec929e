import { defineOperation } from '../../shared/http/operation.ts';
import { listWebhookEventsRequest } from './schema.ts';
import { listWebhookEvents } from '../../shared/store/webhook-events.ts';
import { declaration } from './declaration.ts';

export const handler = defineOperation({
  declaration,
  request: listWebhookEventsRequest,
  user: false,
  run: ({ input, tenantId }) => listWebhookEvents(tenantId, input.pagination),
});
