import { defineOperation } from '../../shared/http/operation.ts';
import { listConversionEvents } from '../../shared/store/conversions.ts';
import { declaration } from './declaration.ts';
import { listEventsRequest } from './schema.ts';

/** POST /conversions/list_events (docs/conversions.md): the user's events, newest first, with where each stands. */
export const handler = defineOperation({
  declaration,
  request: listEventsRequest,
  run: async ({ input, tenantId, user }) => {
    const { events, next } = await listConversionEvents(
      tenantId,
      user.userId,
      {
        ...(input.stage ? { stage: input.stage } : {}),
        ...(input.status ? { status: input.status } : {}),
        ...(input.since ? { since: new Date(input.since).toISOString() } : {}),
      },
      input.limit,
      input.pagination || undefined,
    );
    return { events, paging: next ? { next } : {} };
  },
});
