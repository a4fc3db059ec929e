import type { OperationDoc } from '../../shared/schemas/operation-doc.ts';
import { listDestinationsRequest, listDestinationsResultSchema } from './schema.ts';

/** What the OpenAPI document says of this operation. */
export const api: OperationDoc = {
  summary: 'List where conversions can go',
  description:
    'What the user’s connection to a platform can send conversions to. Social: the datasets (pixels) of the connected ad account (those its business owns when the account has none). Search ads: the account’s enabled conversion actions of type UPLOAD_CLICKS that it owns. Professional: the ad account’s enabled conversion rules of the Conversions API method, which need the `rw_conversions` scope (a connection without it answers SCOPE_MISSING naming it; a new connect link asks for it).',
  tag: 'Conversions',
  request: listDestinationsRequest,
  result: listDestinationsResultSchema,
  refusals: ['SCOPE_MISSING'],
  requestExample: { userId: 'demo-user', platform: 'social' },
  resultExample: { platform: 'social', destinations: [{ destinationId: '771122334455667', name: 'Acme CRM events', kind: 'dataset' }] },
};
