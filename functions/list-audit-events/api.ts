import { day, type OperationDoc } from '../../shared/schemas/operation-doc.ts';
import { listAuditEventsRequest, listAuditEventsResult } from './schema.ts';

/** What the OpenAPI document says of this operation. */
export const api: OperationDoc = {
  summary: 'List audit events',
  description:
    'Every write the service made for the tenant (users, connections, audiences, campaigns, settings, rules), newest first, at most 100 a page, kept 400 days. A write the platform refused is listed with `outcome: failed`; reads are not listed. No token, secret or contact value is ever in an event.',
  tag: 'Tenant',
  request: listAuditEventsRequest,
  result: listAuditEventsResult,
  requestExample: { userId: 'demo-user', action: 'user.created', since: `${day(-7)}T00:00:00Z` },
  resultExample: {
    events: [
      {
        id: 'aud_5f0c1b2a3d4e5f60718293a4',
        occurredAt: `${day(0)}T09:00:00.000Z`,
        action: 'user.created',
        actor: { type: 'api_key', id: 'key_3f2a1b0c9d8e7f6a' },
        userId: 'demo-user',
        target: { type: 'user', id: 'demo-user' },
        changes: { connections: { to: ['social'] } },
        outcome: 'succeeded',
        requestId: 'req-7d2c4b1a',
        idempotencyKey: 'create-demo-user-1',
      },
    ],
    paging: {},
  },
};
