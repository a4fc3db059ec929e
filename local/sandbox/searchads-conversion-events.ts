import { randomUUID } from 'node:crypto';
import { clock } from '../../shared/core/clock.ts';
import type { SandboxRequest, SandboxResponse } from './server.ts';
import type { AcceptedRequest, Account, Row } from './searchads-state.ts';

/**
 * The Data Manager API's `events:ingest` on the search-ads sandbox (docs/conversions.md; the contract's
 * emulator checklist): the request checked whole before anything is kept (every refusal is a fast fail
 * of the whole request, naming the event by its field path), then each event kept with its action.
 * After acceptance an event whose (action, transactionId) was received before counts as
 * DUPLICATE_TRANSACTION_ID, and one with denied consent as DENIED_CONSENT, in the request's status.
 */
export interface ReceivedConversionEvent {
  customerId: string;
  conversionActionId: string;
  event: Row;
  receivedAt: string;
}

const HEX = /^[0-9a-f]{64}$/;
const SOURCES = new Set(['WEB', 'APP', 'IN_STORE', 'PHONE', 'MESSAGE', 'OTHER']);
const CONSENTS = new Set(['CONSENT_GRANTED', 'CONSENT_DENIED', 'CONSENT_STATUS_UNSPECIFIED']);

type Invalid = (reason: string, description: string, field?: string) => SandboxResponse;

/** The refusal of one event, or undefined when it is well formed. */
function checkEvent(event: Row, index: number, encoding: string, lookbackDays: number, invalid: Invalid): SandboxResponse | undefined {
  const at = `events.events[${index}]`;
  if (typeof event.transactionId === 'string' && event.transactionId.length > 64)
    return invalid('FIELD_VALUE_TOO_LONG', 'transaction_id is too long.', `${at}.transaction_id`);
  const time = Date.parse(String(event.eventTimestamp ?? ''));
  if (!Number.isFinite(time)) return invalid('REQUIRED_FIELD_MISSING', 'event_timestamp is required.', `${at}.event_timestamp`);
  if (time < clock.now() - lookbackDays * 86_400_000)
    return invalid('EVENT_TIME_INVALID', 'Event did not occur within the acceptable time window.', `${at}.event_timestamp`);
  if (!SOURCES.has(String(event.eventSource ?? ''))) return invalid('REQUIRED_FIELD_MISSING', 'event_source is required.', `${at}.event_source`);
  const identifiers = ((event.userData as Row | undefined)?.userIdentifiers as Row[] | undefined) ?? [];
  const ads = (event.adIdentifiers as Row | undefined) ?? {};
  if (identifiers.length === 0 && !ads.gclid && !ads.gbraid && !ads.wbraid)
    return invalid('NO_IDENTIFIERS_PROVIDED', 'The event has no user data and no ad identifiers.', at);
  if (identifiers.length > 0 && encoding !== 'HEX') return invalid('REQUIRED_FIELD_MISSING', 'encoding is required for user data.', 'encoding');
  for (const [position, identifier] of identifiers.entries()) {
    const address = identifier.address as Row | undefined;
    const digests = address ? [address.givenName, address.familyName] : [identifier.emailAddress ?? identifier.phoneNumber];
    if (!digests.every((digest) => HEX.test(String(digest ?? ''))))
      return invalid('INVALID_SHA256_FORMAT', 'A user identifier is not a SHA-256 digest in hex.', `${at}.user_data.user_identifiers[${position}]`);
    if (address && (!/^[A-Z]{2}$/.test(String(address.regionCode ?? '')) || !address.postalCode))
      return invalid('INVALID_FORMAT', 'An address takes its region code and postal code.', `${at}.user_data.user_identifiers[${position}].address`);
  }
  for (const [name, value] of Object.entries(ads))
    if (HEX.test(String(value))) return invalid('INVALID_FORMAT', `${name} is an ad identifier in clear, not a digest.`, `${at}.ad_identifiers.${name}`);
  if (event.currency !== undefined && !/^[A-Z]{3}$/.test(String(event.currency)))
    return invalid('INVALID_CURRENCY_CODE', 'currency must be an ISO 4217 code.', `${at}.currency`);
  const consent = (event.consent as Row | undefined) ?? {};
  if (![consent.adUserData, consent.adPersonalization].every((value) => value === undefined || CONSENTS.has(String(value))))
    return invalid('INVALID_FORMAT', 'consent takes CONSENT_GRANTED, CONSENT_DENIED or CONSENT_STATUS_UNSPECIFIED.', `${at}.consent`);
  return undefined;
}

export function ingestEvents(
  request: SandboxRequest,
  state: { received: ReceivedConversionEvent[]; requests: Map<string, AcceptedRequest>; processingMs: number },
  accountOf: (cid: string) => Account,
  invalid: Invalid,
): SandboxResponse {
  const body = request.fields;
  const destinations = (body.destinations as Row[] | undefined) ?? [];
  if (destinations.length === 0) return invalid('REQUIRED_FIELD_MISSING', 'destinations is required.', 'destinations');
  if (destinations.length > 10) return invalid('TOO_MANY_DESTINATIONS', 'At most 10 destinations.', 'destinations');
  const destination = destinations[0] as Row;
  const cid = String((destination.operatingAccount as Row | undefined)?.accountId ?? '');
  if ((destination.operatingAccount as Row | undefined)?.accountType !== 'GOOGLE_ADS' || !/^\d{10}$/.test(cid))
    return invalid('INVALID_FORMAT', 'operating_account must be a GOOGLE_ADS account id of 10 digits.', 'destinations[0].operating_account.account_id');
  const actionId = String(destination.productDestinationId ?? '');
  const action = accountOf(cid).resources.get(`customers/${cid}/conversionActions/${actionId}`);
  if (!action || action.data.status === 'REMOVED')
    return invalid('INVALID_CONVERSION_ACTION_ID', 'The conversion action does not exist in the operating account.', 'destinations[0].product_destination_id');
  if (action.data.type !== 'UPLOAD_CLICKS')
    return invalid(
      'INVALID_CONVERSION_ACTION_TYPE',
      'Offline events need a conversion action of type UPLOAD_CLICKS.',
      'destinations[0].product_destination_id',
    );
  const events = (body.events as Row[] | undefined) ?? [];
  if (events.length === 0) return invalid('REQUIRED_FIELD_MISSING', 'events is required.', 'events');
  if (events.length > 2_000) return invalid('TOO_MANY_EVENTS', 'Too many events in the request.', 'events');
  const encoding = String(body.encoding ?? '');
  const lookbackDays = Number(action.data.clickThroughLookbackWindowDays ?? 90);
  for (const [index, event] of events.entries()) {
    const refusal = checkEvent(event, index, encoding, lookbackDays, invalid);
    if (refusal) return refusal;
  }
  if (body.validateOnly === true) return { status: 200, body: {} };
  const seen = new Set(state.received.filter((kept) => kept.conversionActionId === actionId).map((kept) => String(kept.event.transactionId)));
  const refused: Record<string, number> = {};
  const count = (reason: string) => {
    refused[reason] = (refused[reason] ?? 0) + 1;
  };
  for (const event of events) {
    const transactionId = String(event.transactionId ?? '');
    if ((event.consent as Row | undefined)?.adUserData === 'CONSENT_DENIED') count('PROCESSING_ERROR_REASON_DENIED_CONSENT');
    else if (transactionId && seen.has(transactionId)) count('PROCESSING_ERROR_REASON_DUPLICATE_TRANSACTION_ID');
    seen.add(transactionId);
    state.received.push({ customerId: cid, conversionActionId: actionId, event, receivedAt: clock.date().toISOString() });
  }
  const requestId = randomUUID();
  const accepted: AcceptedRequest = {
    kind: 'events',
    destination,
    readyAt: clock.now() + state.processingMs,
    recordCount: events.length,
    identifierCount: 0,
    refused,
    matched: 0,
  };
  state.requests.set(requestId, accepted);
  return { status: 200, body: { requestId } };
}
