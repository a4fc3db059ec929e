import type { VersionedSettings } from '../../../shared/store/tenant-settings.ts';
import type { ConversionDelivery } from '../../../shared/store/conversions.ts';
import { newWebhookEvent } from '../../../shared/webhooks/events.ts';

/**
 * The tenant's webhook of a conversion's end on one destination (docs/conversions.md): ids, platform,
 * destination, stage and status, never a value of the person. Undefined when the tenant takes no such
 * event. Shared by a lead's outcome (one event) and a conversions job (a request's worth).
 */
export function conversionEndEvent(
  delivery: Pick<ConversionDelivery, 'tenantId' | 'eventId' | 'userId' | 'platform' | 'destinationId' | 'stage'>,
  ending: { status: 'delivered' | 'rejected' | 'unknown'; error?: { code: string; message: string } },
  settings?: VersionedSettings,
) {
  const type = ending.status === 'delivered' ? 'conversion.delivered' : ending.status === 'unknown' ? 'conversion.unknown' : 'conversion.rejected';
  return newWebhookEvent(
    delivery.tenantId,
    type,
    {
      eventId: delivery.eventId,
      userId: delivery.userId,
      platform: delivery.platform,
      destinationId: delivery.destinationId,
      stage: delivery.stage,
      status: ending.status,
      ...(ending.error ? { error: ending.error } : {}),
    },
    settings ? { settings } : {},
  );
}
