import { PlatformRejected } from '../../core/errors.ts';
import { restliRequest, type ProfessionalSession } from './client.ts';

/**
 * CRM events to conversion rules (docs/conversions.md, "Professional"): one `BATCH_CREATE` of
 * `conversionEvents` (at most 5,000), answered with one status per element in request order. The
 * platform keeps no deduplication between API events, so a request whose answer was lost is never
 * sent again: its events end `unknown` (the caller decides; this call is not retried on a timeout).
 */
/** Who the event is about: `userIds` (hashed e-mail, first-party tracking id), always present, and the lead-form response URN. */
export interface ProfessionalUser {
  userIds: Array<{ idType: 'SHA256_EMAIL' | 'LINKEDIN_FIRST_PARTY_ADS_TRACKING_UUID'; idValue: string }>;
  lead?: string;
}

export interface ProfessionalConversionEvent {
  conversionRuleId: string;
  /** epoch milliseconds */
  conversionHappenedAt: number;
  eventId: string;
  user: ProfessionalUser;
  conversionValue?: { currencyCode: string; amount: string };
}

export const ruleUrn = (ruleId: string) => `urn:lla:llaPartnerConversion:${ruleId}`;

/** Each event's status as the platform answered it (201: taken). */
export async function sendProfessionalEvents(session: ProfessionalSession, events: readonly ProfessionalConversionEvent[]): Promise<number[]> {
  const elements = events.map((event) => ({
    conversion: ruleUrn(event.conversionRuleId),
    conversionHappenedAt: event.conversionHappenedAt,
    ...(event.conversionValue ? { conversionValue: event.conversionValue } : {}),
    eventId: event.eventId,
    user: event.user,
  }));
  const { body } = await restliRequest(session, 'POST', '/conversionEvents', { json: { elements }, restliMethod: 'BATCH_CREATE', retrySafe: false });
  const statuses = ((body as { elements?: Array<{ status?: number }> } | null)?.elements ?? []).map((element) => Number(element.status));
  if (statuses.length !== events.length) throw new PlatformRejected('professional', 'The platform answered a batch of conversions without a status for each.');
  return statuses;
}
