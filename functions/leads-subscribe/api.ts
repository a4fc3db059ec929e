import type { OperationDoc } from '../../shared/schemas/operation-doc.ts';
import { subscribeLeadsRequest, subscriptionsResultSchema } from './schema.ts';

/** What the OpenAPI document says of this operation. */
export const api: OperationDoc = {
  summary: 'Subscribe to a user\u2019s leads',
  description:
    'Subscribes what the user\u2019s connection reaches (social: its Page, through the app\u2019s `leadgen` webhook; professional: its ad account\u2019s lead notifications), so each new lead comes as the `lead.received` webhook. A connection without the permissions leads need answers SCOPE_MISSING naming them (a new connect link asks for them).',
  tag: 'Leads',
  request: subscribeLeadsRequest,
  result: subscriptionsResultSchema,
  refusals: ['SCOPE_MISSING'],
  requestExample: { userId: 'demo-user', platform: 'social' },
  resultExample: { subscriptions: [{ target: '109876543210987', status: 'subscribed' }] },
};
