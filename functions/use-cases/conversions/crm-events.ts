import { InvalidRequest, type Platform, StageNotMapped } from '../../../shared/core/errors.ts';
import {
  type ContactValues,
  professionalUserOfContact,
  searchadsIdentifiersOfContact,
  socialUserDataOfContact,
} from '../../../shared/conversions/contact-identifiers.ts';
import type { ProfessionalConversionEvent } from '../../../shared/platforms/professional/conversion-events.ts';
import type { SearchadsConversionEvent } from '../../../shared/platforms/searchads/conversion-events.ts';
import type { SocialServerEvent } from '../../../shared/platforms/social/conversion-events.ts';
import type { ConversionStatus } from '../../../shared/schemas/conversion-values.ts';
import type { CrmEvent } from '../../../shared/schemas/conversions.ts';
import type { StoredStage, StoredStages } from '../../../shared/store/conversion-stages.ts';
import { expired, hasIdentifier, outcomeTooFarAhead } from './windows.ts';

/**
 * The events of /conversions/send planned (docs/conversions.md, "Sending CRM events"): each to every
 * platform whose destination its stage maps, its fate there decided before anything is stored or sent
 * (denied consent, too old, nothing to match), and what the platform will receive built at once, with
 * the person's values hashed by that platform's rules. Nothing of the person leaves this module but
 * hashes and click ids.
 */
export interface PlannedDelivery {
  platform: Platform;
  destinationId: string;
  status: Extract<ConversionStatus, 'queued' | 'skipped_expired' | 'skipped_consent' | 'skipped_no_identifier'>;
  /** what the platform receives (hashes and click ids only) */
  payload: Record<string, unknown>;
}

export interface PlannedEvent {
  eventId: string;
  stage: string;
  occurredAt: string;
  occurredAtMs: number;
  deliveries: PlannedDelivery[];
}

/** The platforms in the order a job sends to them. */
export const SEND_ORDER: readonly Platform[] = ['social', 'professional', 'searchads'];

function destinationsOf(stage: StoredStage): Array<{ platform: Platform; destinationId: string }> {
  const found: Array<{ platform: Platform; destinationId: string }> = [];
  if (stage.social) found.push({ platform: 'social', destinationId: stage.social.datasetId });
  if (stage.professional) found.push({ platform: 'professional', destinationId: stage.professional.conversionRuleId });
  if (stage.searchads) found.push({ platform: 'searchads', destinationId: stage.searchads.conversionActionId });
  return found;
}

function payloadOf(platform: Platform, stage: StoredStage, event: CrmEvent, occurredAtMs: number, crmName: string) {
  const contact = event.user as ContactValues;
  const value = event.value;
  if (platform === 'social') {
    const sent: SocialServerEvent = {
      event_name: stage.social?.eventName ?? stage.stage,
      event_time: Math.floor(occurredAtMs / 1000),
      event_id: event.eventId,
      user_data: socialUserDataOfContact(contact),
      custom_data: { lead_event_source: crmName, ...(value ? { value: Number(value.amount), currency: value.currency.toLowerCase() } : {}) },
    };
    return { datasetId: stage.social?.datasetId, event: sent };
  }
  if (platform === 'professional') {
    const sent: ProfessionalConversionEvent = {
      conversionRuleId: stage.professional?.conversionRuleId as string,
      conversionHappenedAt: occurredAtMs,
      eventId: event.eventId,
      user: professionalUserOfContact(contact),
      ...(value ? { conversionValue: { currencyCode: value.currency.toUpperCase(), amount: value.amount } } : {}),
    };
    return { event: sent };
  }
  const sent: SearchadsConversionEvent = {
    transactionId: event.eventId,
    eventTimestamp: new Date(occurredAtMs).toISOString(),
    ...searchadsIdentifiersOfContact(contact),
    ...(value ? { value } : {}),
    // always sent: the caller's, or unspecified
    consent: {
      adUserData: event.consent?.adUserData ?? 'CONSENT_STATUS_UNSPECIFIED',
      adPersonalization: event.consent?.adPersonalization ?? 'CONSENT_STATUS_UNSPECIFIED',
    },
  };
  return { event: sent };
}

function fateOf(platform: Platform, stage: StoredStage, event: CrmEvent, occurredAtMs: number, payload: { event: unknown }): PlannedDelivery['status'] {
  if (event.consent?.adUserData === 'CONSENT_DENIED') return 'skipped_consent';
  if (expired(platform, occurredAtMs, platform === 'searchads' ? stage.searchads?.lookbackDays : undefined)) return 'skipped_expired';
  return hasIdentifier(platform, payload.event as SearchadsConversionEvent) ? 'queued' : 'skipped_no_identifier';
}

/** Every event planned, or the call refused whole (a stage mapped nowhere, a time ahead of now): nothing is half-sent. */
export function planEvents(funnel: StoredStages | undefined, events: readonly CrmEvent[]): PlannedEvent[] {
  const stages = new Map((funnel?.stages ?? []).map((stage) => [stage.stage.toLowerCase(), stage]));
  return events.map((event, index) => {
    const stage = stages.get(event.stage.toLowerCase());
    const destinations = stage ? destinationsOf(stage) : [];
    if (!funnel || !stage || destinations.length === 0) throw new StageNotMapped(event.stage);
    const occurredAtMs = Date.parse(event.occurredAt);
    if (outcomeTooFarAhead(occurredAtMs))
      throw new InvalidRequest(`events[${index}].occurredAt is more than 5 minutes ahead of now.`, [
        { path: `events.${index}.occurredAt`, message: 'must not be in the future' },
      ]);
    const deliveries = SEND_ORDER.flatMap((platform) =>
      destinations
        .filter((destination) => destination.platform === platform)
        .map(({ destinationId }): PlannedDelivery => {
          const payload = payloadOf(platform, stage, event, occurredAtMs, funnel.crmName);
          const status = fateOf(platform, stage, event, occurredAtMs, payload);
          return { platform, destinationId, status, payload: status === 'queued' ? payload : {} };
        }),
    );
    return { eventId: event.eventId, stage: stage.stage, occurredAt: new Date(occurredAtMs).toISOString(), occurredAtMs, deliveries };
  });
}
