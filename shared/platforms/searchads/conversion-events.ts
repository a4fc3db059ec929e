import { type PlatformRejected, PlatformUnavailable } from '../../core/errors.ts';
import type { SearchadsSession } from './client.ts';
import { account, dataManagerCall, type GoogleAddress } from './data-manager.ts';

/**
 * CRM events to a conversion action through the Data Manager API's `events:ingest`
 * (docs/conversions.md, "Search ads"): at most 2,000 events a request, to the account that owns the
 * action (the customer: only such actions are offered), with the manager as `loginAccount` when the
 * user reaches the customer through one. The event's id is Google's `transactionId`, on which Google
 * deduplicates per action: a request whose answer was lost is sent again as it was. An accepted request
 * answers only its id; what became of its events is read from its request status.
 */
export const EVENTS_PER_REQUEST = 2_000;

export type ConsentStatus = 'CONSENT_GRANTED' | 'CONSENT_DENIED' | 'CONSENT_STATUS_UNSPECIFIED';

export interface SearchadsEventIdentifiers {
  userIdentifiers: Array<{ emailAddress: string } | { phoneNumber: string } | { address: GoogleAddress }>;
  adIdentifiers?: { gclid?: string; gbraid?: string; wbraid?: string };
}

export interface SearchadsConversionEvent extends SearchadsEventIdentifiers {
  transactionId: string;
  /** RFC 3339, UTC */
  eventTimestamp: string;
  value?: { amount: string; currency: string };
  consent: { adUserData: ConsentStatus; adPersonalization: ConsentStatus };
}

function eventBody(event: SearchadsConversionEvent) {
  return {
    transactionId: event.transactionId,
    eventTimestamp: event.eventTimestamp,
    eventSource: 'OTHER', // required for UPLOAD_CLICKS actions; a CRM stage is none of web, app, store, phone or message
    ...(event.userIdentifiers.length > 0 ? { userData: { userIdentifiers: event.userIdentifiers } } : {}),
    ...(event.adIdentifiers ? { adIdentifiers: event.adIdentifiers } : {}),
    ...(event.value ? { conversionValue: Number(event.value.amount), currency: event.value.currency.toUpperCase() } : {}),
    consent: event.consent,
  };
}

/** The events sent to the action: the request's id (to follow its status), or undefined for `validateOnly` (nothing is kept by Google). */
export async function ingestEvents(
  session: SearchadsSession,
  conversionActionId: string,
  events: readonly SearchadsConversionEvent[],
  { validateOnly = false }: { validateOnly?: boolean } = {},
): Promise<string | undefined> {
  const body = {
    destinations: [
      {
        operatingAccount: account(session.customerId),
        ...(session.loginCustomerId ? { loginAccount: account(session.loginCustomerId) } : {}),
        productDestinationId: conversionActionId,
      },
    ],
    events: events.map(eventBody),
    encoding: 'HEX',
    validateOnly,
  };
  const answer = await dataManagerCall<{ requestId?: string }>(session, { method: 'POST', path: 'events:ingest', body }, true);
  if (validateOnly) return undefined;
  if (!answer.requestId) throw new PlatformUnavailable('searchads', new Error('an accepted request without its id'));
  return answer.requestId;
}

/** The event a refusal names by its field path (`events.events[3].event_timestamp`, or `events[3]…`), if it names one. */
export function refusedEventIndex(error: PlatformRejected): number | undefined {
  const field = (error.extra as { platformField?: unknown }).platformField;
  const match = typeof field === 'string' ? /(?:^|\.)events\[(\d+)\]/.exec(field) : null;
  return match ? Number(match[1]) : undefined;
}
