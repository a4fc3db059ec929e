import { defineOperation } from '../../shared/http/operation.ts';
import { loadAppCredentials } from '../../shared/secrets/app-credentials.ts';
import { listLeads } from '../../shared/store/leads.ts';
import { declaration } from './declaration.ts';
import { listLeadsRequest } from './schema.ts';

/** POST /leads/list_leads (docs/leads.md). */
export const handler = defineOperation({
  declaration,
  credentials: loadAppCredentials,
  request: listLeadsRequest,
  run: async ({ input, tenantId, user }) => {
    const { limit, pagination, userId: _userId, since, until, ...filter } = input;
    const iso = (instant: string | undefined) => (instant ? new Date(instant).toISOString() : undefined);
    const page = await listLeads(
      tenantId,
      user.userId,
      { ...filter, ...(since ? { since: iso(since) } : {}), ...(until ? { until: iso(until) } : {}) },
      limit,
      pagination || undefined,
    );
    return { leads: page.leads, paging: page.next ? { next: page.next } : {} };
  },
});
