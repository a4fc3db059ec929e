import type { OperationDoc } from '../../shared/schemas/operation-doc.ts';
import { PROPOSAL_EXAMPLE } from '../../shared/schemas/rule-examples.ts';
import { listProposalsRequest, listProposalsResultSchema } from './schema.ts';

/** What the OpenAPI document says of this operation. */
export const api: OperationDoc = {
  summary: 'List proposals',
  description:
    'The changes rules in mode `approve` proposed for the user, newest first, 50 a page, filtered by status and rule. A pending proposal past its `expiresAt` is `expired`.',
  tag: 'Optimization',
  request: listProposalsRequest,
  result: listProposalsResultSchema,
  requestExample: { userId: 'demo-user', status: 'pending' },
  resultExample: { proposals: [PROPOSAL_EXAMPLE], paging: {} },
};
