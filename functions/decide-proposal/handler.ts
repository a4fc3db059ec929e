import { idempotent } from '../../shared/http/idempotency.ts';
import { defineOperation } from '../../shared/http/operation.ts';
import { loadAppCredentials } from '../../shared/secrets/app-credentials.ts';
import { recordAuditEvent } from '../../shared/store/audit-event-writes.ts';
import { decideProposal } from '../use-cases/rules/proposals.ts';
import { declaration } from './declaration.ts';
import { decideProposalRequest } from './schema.ts';

/** POST /optimize_me/decide_proposal: approve (applied once, if it still holds) or reject a rule's proposal (docs/rules.md). */
export const handler = defineOperation({
  declaration,
  recorder: recordAuditEvent,
  credentials: loadAppCredentials,
  idempotency: idempotent(),
  request: decideProposalRequest,
  run: ({ input, tenantId, user, context, audit }) => decideProposal(tenantId, user, input, context, audit),
});
