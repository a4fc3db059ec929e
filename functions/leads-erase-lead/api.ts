import type { OperationDoc } from '../../shared/schemas/operation-doc.ts';
import { eraseLeadRequest, eraseLeadResultSchema } from './schema.ts';

/** What the OpenAPI document says of this operation. */
export const api: OperationDoc = {
  summary: 'Erase a lead',
  description:
    'Removes one lead for good: its values are gone from our store, and the same lead found again (a platform retry, the sweep) is not stored again. Audited without its values.',
  tag: 'Leads',
  request: eraseLeadRequest,
  result: eraseLeadResultSchema,
  requestExample: { userId: 'demo-user', leadId: '1357924680135791' },
  resultExample: { leadId: '1357924680135791', erased: true },
};
