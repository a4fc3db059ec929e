import { defineOperation } from '../../shared/http/operation.ts';
import { listProposals } from '../../shared/store/proposals.ts';
import { declaration } from './declaration.ts';
import { listProposalsRequest } from './schema.ts';

/** POST /optimize_me/list_proposals: the user's proposals, newest first, by status and rule (docs/rules.md). */
export const handler = defineOperation({
  declaration,
  request: listProposalsRequest,
  run: async ({ input, tenantId, user }) => {
    const { status, ruleId, pagination } = input;
    const page = await listProposals(
      tenantId,
      user.userId,
      { ...(status ? { status } : {}), ...(ruleId ? { ruleId } : {}) },
      PAGE_SIZE,
      pagination || undefined,
    );
    return { proposals: page.proposals, paging: page.next ? { next: page.next } : {} };
  },
});

const PAGE_SIZE = 50;
