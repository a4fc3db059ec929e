import { BUDGET_REFUSALS, DECLARATION_REFUSAL, type OperationDoc, STATUS_REFUSALS } from '../../shared/schemas/operation-doc.ts';
import { PROPOSAL_EXAMPLE } from '../../shared/schemas/rule-examples.ts';
import { decideProposalRequest, decideProposalResultSchema } from './schema.ts';

/** What the OpenAPI document says of this operation. */
export const api: OperationDoc = {
  refusals: [
    'STALE_PROPOSAL',
    'PROPOSAL_EXPIRED',
    'PROPOSAL_DECIDED',
    ...new Set([...BUDGET_REFUSALS, ...STATUS_REFUSALS]),
    DECLARATION_REFUSAL,
    'SCOPE_MISSING',
  ],
  summary: 'Approve or reject a proposal',
  description:
    'Approving applies the proposed change through campaign control, exactly once however many approvals race or repeat, after checking the guardrails again and that the campaign still holds `from` (else the proposal fails with STALE_PROPOSAL). Rejecting ends it. A repeat of the same decision answers the proposal as it is; a pending proposal past `expiresAt` is PROPOSAL_EXPIRED.',
  tag: 'Optimization',
  request: decideProposalRequest,
  result: decideProposalResultSchema,
  requestExample: { userId: 'demo-user', proposalId: PROPOSAL_EXAMPLE.proposalId, decision: 'approve' },
  resultExample: { proposal: { ...PROPOSAL_EXAMPLE, status: 'applied', decidedAt: PROPOSAL_EXAMPLE.createdAt, finishedAt: PROPOSAL_EXAMPLE.createdAt } },
};
