import * as z from 'zod';
import { sendTestWebhookRequest } from './schema.ts';
import { day, type OperationDoc } from '../../shared/schemas/operation-doc.ts';

/** What the OpenAPI document says of this operation. */
export const api: OperationDoc = {
  summary: 'Send a test webhook',
  description: 'Queues a `webhook.test` event to the tenant’s webhook (404 NOT_FOUND when none is set or it was disabled by a 410).',
  tag: 'Tenant',
  request: sendTestWebhookRequest,
  result: z.object({ event: z.object({ id: z.string(), type: z.string(), createdAt: z.string(), status: z.string() }) }),
  requestExample: {},
  resultExample: { event: { id: 'msg_2b1f0c9e8d7a6b5c4d3e2f1a0b9c8d7e', type: 'webhook.test', createdAt: `${day(0)}T09:00:00.000Z`, status: 'pending' } },
};
