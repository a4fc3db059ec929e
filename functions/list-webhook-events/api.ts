import * as z from 'zod';
import { pagingSchema } from '../../shared/schemas/social.ts';
import { webhookEventViewSchema } from '../../shared/schemas/tenant.ts';
import { listWebhookEventsRequest } from './schema.ts';
import { day, type OperationDoc } from '../../shared/schemas/operation-doc.ts';

/** What the OpenAPI document says of this operation. */
export const api: OperationDoc = {
  summary: 'List webhook events',
  description:
    'The tenant’s events, newest first, with their delivery state: `pending`, `delivered` or `failed` after the last retry (about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h).',
  tag: 'Tenant',
  request: listWebhookEventsRequest,
  result: z.object({ events: z.array(webhookEventViewSchema), paging: pagingSchema }),
  requestExample: { pagination: '' },
  resultExample: {
    events: [
      {
        id: 'msg_2b1f0c9e8d7a6b5c4d3e2f1a0b9c8d7e',
        type: 'webhook.test',
        createdAt: `${day(0)}T09:00:00.000Z`,
        status: 'delivered',
        attempts: 1,
        lastStatus: 200,
        lastAttemptAt: `${day(0)}T09:00:00.120Z`,
      },
    ],
    paging: {},
  },
};
