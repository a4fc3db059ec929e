import type { OperationDoc } from '../../shared/schemas/operation-doc.ts';
import { unsubscribeLeadsRequest, subscriptionsResultSchema } from './schema.ts';

/** What the OpenAPI document says of this operation. */
export const api: OperationDoc = {
  summary: 'Unsubscribe from a user\u2019s leads',
  description:
    'No lead of the user\u2019s Page or ad account is delivered to this user any more. The platform\u2019s own subscription is shared: it is removed only when no other user of any tenant still takes that Page\u2019s or account\u2019s leads (and the grant still allows it).',
  tag: 'Leads',
  request: unsubscribeLeadsRequest,
  result: subscriptionsResultSchema,
  requestExample: { userId: 'demo-user', platform: 'social' },
  resultExample: { subscriptions: [{ target: '109876543210987', status: 'unsubscribed' }] },
};
