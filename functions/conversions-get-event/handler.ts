import { NotFound } from '../../shared/core/errors.ts';
import { defineOperation } from '../../shared/http/operation.ts';
import { findConversionEvent } from '../../shared/store/conversions.ts';
import { declaration } from './declaration.ts';
import { getEventRequest } from './schema.ts';

/** POST /conversions/get_event (docs/conversions.md): an event and where it stands on each platform. */
export const handler = defineOperation({
  declaration,
  request: getEventRequest,
  run: async ({ input, tenantId, user }) => {
    const found = await findConversionEvent(tenantId, input.eventId);
    if (!found || found.event.userId !== user.userId) throw new NotFound(`No conversion event ${input.eventId} for this user.`);
    const { event, deliveries } = found;
    return {
      eventId: event.eventId,
      ...(event.leadId ? { leadId: event.leadId } : {}),
      stage: event.stage,
      occurredAt: event.occurredAt,
      platforms: deliveries.map(({ platform, destinationId, status, error }) => ({ platform, destinationId, status, ...(error ? { error } : {}) })),
    };
  },
});
