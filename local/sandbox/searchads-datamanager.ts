import { randomUUID } from 'node:crypto';
import { clock } from '../../shared/core/clock.ts';
import type { SandboxRequest, SandboxResponse, SandboxRoute } from './server.ts';
import { ingestEvents, type ReceivedConversionEvent } from './searchads-conversion-events.ts';
import type { AcceptedRequest, Account, Row } from './searchads-state.ts';

/**
 * Google's Data Manager API on the search-ads sandbox (docs/google-audiences.md; the contract's emulator
 * checklist): Customer Match lists per account, whose members are sets of hashed identifiers with the
 * time each was last added; ingest and remove checked whole before anything is kept (fast fail, as
 * Google does), removeAll as of a time, and each accepted request's status. An EEA member (its address's
 * region) without both consents granted is refused after acceptance, so a request ends PARTIAL_SUCCESS
 * or FAILED; the match rate is a fixed share of the members (those whose first digest begins 0–b). A
 * request stays PROCESSING for `processingMs` (POST /__sandbox/datamanager), 0 by default. Tokens are
 * those of the search-ads sandbox; one refreshed from a refresh token holding `ADS_ONLY` lacks the scope.
 */
export interface DataManagerState {
  lists: Map<string, Map<string, UserList>>;
  requests: Map<string, AcceptedRequest>;
  nextListId: number;
  processingMs: number;
  /** CRM events received by events:ingest, in order (GET /__sandbox/conversions lists them) */
  received: ReceivedConversionEvent[];
}

interface UserList {
  id: string;
  displayName: string;
  integrationCode?: string;
  membershipStatus: string;
  /** a member's identifiers (as JSON) → when it was last added (epoch ms) */
  members: Map<string, number>;
}

export const newDataManagerState = (): DataManagerState => ({
  lists: new Map(),
  requests: new Map(),
  nextListId: 9_081_726_000,
  processingMs: 0,
  received: [],
});

const EEA = new Set('AT BE BG HR CY CZ DK EE FI FR DE GR HU IE IT LV LT LU MT NL PL PT RO SK SI ES SE IS LI NO'.split(' '));
const HEX = /^[0-9a-f]{64}$/;
const BASE64 = /^[A-Za-z0-9+/]{43}=$/;

/** A google.rpc.Status refusal: the general reason in ErrorInfo, the specific one in a field violation. */
export function statusError(code: number, status: string, reason: string, description: string, field?: string): SandboxResponse {
  return {
    status: code,
    body: {
      error: {
        code,
        message: code === 400 ? 'There was a problem with the request.' : description,
        status,
        details: [
          { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: code === 400 ? 'INVALID_ARGUMENT' : reason, domain: 'datamanager.googleapis.com' },
          { '@type': 'type.googleapis.com/google.rpc.RequestInfo', requestId: `t-${randomUUID()}` },
          ...(code === 400 ? [{ '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: [{ field: field ?? '', description, reason }] }] : []),
        ],
      },
    },
  };
}

const invalid = (reason: string, description: string, field?: string) => statusError(400, 'INVALID_ARGUMENT', reason, description, field);

/** The bands Google reports an upload's match rate in. */
function matchRateRange(share: number): string {
  const percent = Math.round(share * 100);
  if (percent < 20) return 'MATCH_RATE_RANGE_LESS_THAN_20';
  if (percent <= 30) return 'MATCH_RATE_RANGE_20_TO_30';
  if (percent > 90) return 'MATCH_RATE_RANGE_91_TO_100';
  const low = Math.floor((percent - 1) / 10) * 10 + 1;
  return `MATCH_RATE_RANGE_${low}_TO_${low + 9}`;
}

const listView = (cid: string, list: UserList, requests: Iterable<AcceptedRequest>) => {
  const done = [...requests].filter(
    (request) => request.destination.productDestinationId === list.id && request.kind === 'ingest' && request.readyAt <= clock.now(),
  );
  const sent = done.reduce((sum, request) => sum + request.recordCount, 0);
  const matched = done.reduce((sum, request) => sum + request.matched, 0);
  return {
    name: `accountTypes/GOOGLE_ADS/accounts/${cid}/userLists/${list.id}`,
    id: list.id,
    displayName: list.displayName,
    ...(list.integrationCode ? { integrationCode: list.integrationCode } : {}),
    membershipStatus: list.membershipStatus,
    membershipDuration: '46656000s',
    accessReason: 'OWNED',
    ingestedUserListInfo: {
      uploadKeyTypes: ['CONTACT_ID'],
      contactIdInfo: { dataSourceType: 'DATA_SOURCE_TYPE_FIRST_PARTY', ...(sent > 0 ? { matchRatePercentage: Math.round((matched / sent) * 100) } : {}) },
    },
    ...(list.members.size > 0 ? { sizeInfo: { searchNetworkMembersCount: String(Math.round(list.members.size * 0.75)) } } : {}),
    targetNetworkInfo: { eligibleForSearch: list.members.size >= 100, eligibleForDisplay: list.members.size >= 100 },
  };
};

/** What a member's identifiers are, or why the whole request is refused. */
function checkMember(member: Row, index: number, encoding: string): SandboxResponse | { identifiers: Row[] } {
  const at = `audience_members.audience_members[${index}]`;
  const identifiers = ((member.userData as Row | undefined)?.userIdentifiers as Row[] | undefined) ?? [];
  if (!member.userData) return invalid('INVALID_AUDIENCE_MEMBER', 'The audience member has no user data.', at);
  if (identifiers.length === 0) return invalid('REQUIRED_FIELD_MISSING', 'A member needs at least one user identifier.', `${at}.user_data.user_identifiers`);
  if (identifiers.length > 10) return invalid('TOO_MANY_USER_IDENTIFIERS', 'A member has at most 10 user identifiers.', `${at}.user_data.user_identifiers`);
  const digest = encoding === 'HEX' ? HEX : BASE64;
  const badDigest = (value: unknown) => typeof value !== 'string' || !digest.test(value);
  for (const [position, identifier] of identifiers.entries()) {
    const field = `${at}.user_data.user_identifiers[${position}]`;
    const kinds = ['emailAddress', 'phoneNumber', 'address'].filter((kind) => identifier[kind] !== undefined);
    if (kinds.length !== 1) return invalid('INVALID_FORMAT', 'A user identifier holds exactly one of email_address, phone_number, address.', field);
    const encodingReason = encoding === 'HEX' ? 'INVALID_HEX_ENCODING' : 'INVALID_BASE64_ENCODING';
    if (kinds[0] === 'address') {
      const address = identifier.address as Row;
      for (const name of ['givenName', 'familyName', 'regionCode', 'postalCode'])
        if (typeof address[name] !== 'string' || address[name] === '')
          return invalid('REQUIRED_FIELD_MISSING', `The address has no ${name}.`, `${field}.address`);
      if (badDigest(address.givenName) || badDigest(address.familyName))
        return invalid(encodingReason, `The ${encoding} encoded value is malformed.`, `${field}.address`);
      if (!/^[A-Z]{2}$/.test(String(address.regionCode)))
        return invalid('INVALID_FORMAT', 'region_code must be two upper-case letters.', `${field}.address.region_code`);
    } else if (badDigest(identifier[kinds[0] as string])) return invalid(encodingReason, `The ${encoding} encoded value is malformed.`, `${field}.${kinds[0]}`);
  }
  return { identifiers };
}

export function dataManagerRoutes(
  dm: DataManagerState,
  authorize: (request: SandboxRequest) => SandboxResponse | undefined,
  accountOf: (cid: string) => Account,
  undeclared: (account: Account) => boolean,
): SandboxRoute[] {
  const listsOf = (cid: string) => {
    const lists = dm.lists.get(cid) ?? new Map<string, UserList>();
    dm.lists.set(cid, lists);
    return lists;
  };
  const authorized =
    (handle: (request: SandboxRequest, params: Record<string, string | undefined>) => SandboxResponse) =>
    (request: SandboxRequest, params: Record<string, string | undefined>) =>
      authorize(request) ?? handle(request, params);

  /** ingest and remove: the request checked whole, then kept */
  const members = (kind: 'ingest' | 'remove') =>
    authorized((request) => {
      const body = request.fields;
      const destinations = (body.destinations as Row[] | undefined) ?? [];
      if (destinations.length === 0) return invalid('REQUIRED_FIELD_MISSING', 'destinations is required.', 'destinations');
      if (destinations.length > 10) return invalid('TOO_MANY_DESTINATIONS', 'At most 10 destinations.', 'destinations');
      const destination = destinations[0] as Row;
      const cid = String((destination.operatingAccount as Row | undefined)?.accountId ?? '');
      if ((destination.operatingAccount as Row | undefined)?.accountType !== 'GOOGLE_ADS' || !/^\d{10}$/.test(cid))
        return invalid('INVALID_FORMAT', 'operating_account must be a GOOGLE_ADS account id of 10 digits.', 'destinations[0].operating_account.account_id');
      const list = listsOf(cid).get(String(destination.productDestinationId ?? ''));
      if (!list) return invalid('INVALID_USER_LIST_ID', 'The user list does not exist in the operating account.', 'destinations[0].product_destination_id');
      const encoding = String(body.encoding ?? '');
      if (encoding !== 'HEX' && encoding !== 'BASE64') return invalid('REQUIRED_FIELD_MISSING', 'encoding is required for user data.', 'encoding');
      if (kind === 'ingest' && (body.termsOfService as Row | undefined)?.customerMatchTermsOfServiceStatus !== 'ACCEPTED')
        return invalid('TERMS_AND_CONDITIONS_NOT_SIGNED', 'The Customer Match terms of service must be accepted.', 'terms_of_service');
      if (kind === 'ingest' && undeclared(accountOf(cid)))
        return invalid(
          'EU_POLITICAL_ADVERTISING_DECLARATION_REQUIRED',
          'The account has campaigns without an EU political advertising declaration.',
          'destinations[0]',
        );
      const given = (body.audienceMembers as Row[] | undefined) ?? [];
      if (given.length === 0) return invalid('REQUIRED_FIELD_MISSING', 'audience_members is required.', 'audience_members');
      if (given.length > 10_000) return invalid('TOO_MANY_AUDIENCE_MEMBERS', 'At most 10000 audience members a request.', 'audience_members');
      const checked: Row[][] = [];
      for (const [index, member] of given.entries()) {
        const one = checkMember(member, index, encoding);
        if ('status' in one) return one;
        checked.push(one.identifiers);
      }
      if (body.validateOnly === true) return { status: 200, body: {} };
      const now = clock.now();
      const refused: Record<string, number> = {};
      let matched = 0;
      const requestConsent = (body.consent as Row | undefined) ?? {};
      for (const [index, identifiers] of checked.entries()) {
        const key = JSON.stringify(identifiers);
        if (kind === 'remove') {
          list.members.delete(key);
          continue;
        }
        const consent = ((given[index] as Row).consent as Row | undefined) ?? requestConsent;
        const region = identifiers.map((identifier) => (identifier.address as Row | undefined)?.regionCode).find(Boolean);
        const granted = consent.adUserData === 'CONSENT_GRANTED' && consent.adPersonalization === 'CONSENT_GRANTED';
        if (region && EEA.has(String(region)) && !granted) {
          const reason =
            consent.adUserData === 'CONSENT_DENIED' || consent.adPersonalization === 'CONSENT_DENIED'
              ? 'PROCESSING_ERROR_REASON_DENIED_CONSENT'
              : 'PROCESSING_ERROR_REASON_NO_CONSENT';
          refused[reason] = (refused[reason] ?? 0) + 1;
          continue;
        }
        list.members.set(key, now);
        const first = identifiers[0] as Row;
        const digest = String(first.emailAddress ?? first.phoneNumber ?? (first.address as Row | undefined)?.givenName ?? '');
        if (/^[0-9a-b]/.test(digest)) matched++;
      }
      const requestId = randomUUID();
      dm.requests.set(requestId, {
        kind,
        destination,
        readyAt: now + dm.processingMs,
        recordCount: checked.length,
        identifierCount: checked.reduce((sum, identifiers) => sum + identifiers.length, 0),
        refused,
        matched,
      });
      return { status: 200, body: { requestId } };
    });

  return [
    {
      method: 'POST',
      path: /^\/v1\/accountTypes\/GOOGLE_ADS\/accounts\/(?<cid>\d{10})\/userLists$/,
      handle: authorized((request, { cid }) => {
        const body = request.fields;
        const displayName = String(body.displayName ?? '').trim();
        if (!displayName) return invalid('REQUIRED_FIELD_MISSING', 'display_name is required.', 'user_list.display_name');
        const lists = listsOf(cid as string);
        if ([...lists.values()].some((list) => list.displayName === displayName))
          return statusError(409, 'ALREADY_EXISTS', 'ALREADY_EXISTS', 'A user list with this name already exists in the account.');
        const keyTypes = ((body.ingestedUserListInfo as Row | undefined)?.uploadKeyTypes as unknown[] | undefined) ?? [];
        if (keyTypes.length !== 1)
          return invalid('INVALID_FORMAT', 'upload_key_types takes exactly one value.', 'user_list.ingested_user_list_info.upload_key_types');
        if (undeclared(accountOf(cid as string)))
          return invalid(
            'EU_POLITICAL_ADVERTISING_DECLARATION_REQUIRED',
            'The account has campaigns without an EU political advertising declaration.',
            'parent',
          );
        if (request.query.get('validateOnly') === 'true') return { status: 200, body: {} };
        const list: UserList = {
          id: String(dm.nextListId++),
          displayName,
          ...(body.integrationCode ? { integrationCode: String(body.integrationCode) } : {}),
          membershipStatus: String(body.membershipStatus ?? 'OPEN'),
          members: new Map(),
        };
        lists.set(list.id, list);
        return { status: 200, body: listView(cid as string, list, dm.requests.values()) };
      }),
    },
    {
      method: 'GET',
      path: /^\/v1\/accountTypes\/GOOGLE_ADS\/accounts\/(?<cid>\d{10})\/userLists$/,
      handle: authorized((request, { cid }) => {
        const filter = request.query.get('filter') ?? '';
        const code = /integration_?[cC]ode\s*=\s*"([^"]*)"/.exec(filter)?.[1];
        const lists = [...listsOf(cid as string).values()].filter((list) => code === undefined || list.integrationCode === code);
        return { status: 200, body: lists.length > 0 ? { userLists: lists.map((list) => listView(cid as string, list, dm.requests.values())) } : {} };
      }),
    },
    {
      method: 'GET',
      path: /^\/v1\/accountTypes\/GOOGLE_ADS\/accounts\/(?<cid>\d{10})\/userLists\/(?<id>\d+)$/,
      handle: authorized((_request, { cid, id }) => {
        const list = listsOf(cid as string).get(id as string);
        return list
          ? { status: 200, body: listView(cid as string, list, dm.requests.values()) }
          : statusError(404, 'NOT_FOUND', 'NOT_FOUND', 'The user list was not found.');
      }),
    },
    { method: 'POST', path: /^\/v1\/audienceMembers:ingest$/, handle: members('ingest') },
    { method: 'POST', path: /^\/v1\/events:ingest$/, handle: authorized((request) => ingestEvents(request, dm, accountOf, invalid)) },
    { method: 'POST', path: /^\/v1\/audienceMembers:remove$/, handle: members('remove') },
    {
      method: 'POST',
      path: /^\/v1\/audienceMembers:removeAll$/,
      handle: authorized((request) => {
        const destination = ((request.fields.destinations as Row[] | undefined) ?? [])[0];
        const cid = String((destination?.operatingAccount as Row | undefined)?.accountId ?? '');
        const list = listsOf(cid).get(String(destination?.productDestinationId ?? ''));
        if (!destination || !list)
          return invalid('INVALID_USER_LIST_ID', 'The user list does not exist in the operating account.', 'destinations[0].product_destination_id');
        const asOf = request.fields.removeAsOfTime === undefined ? clock.now() : Date.parse(String(request.fields.removeAsOfTime));
        if (!Number.isFinite(asOf) || asOf > clock.now())
          return invalid('INVALID_REMOVE_AS_OF_TIME', 'remove_as_of_time must not be in the future.', 'remove_as_of_time');
        for (const [key, lastAdded] of list.members) if (lastAdded < asOf) list.members.delete(key);
        const requestId = randomUUID();
        dm.requests.set(requestId, {
          kind: 'removeAll',
          destination,
          readyAt: clock.now() + dm.processingMs,
          recordCount: 0,
          identifierCount: 0,
          refused: {},
          matched: 0,
        });
        return { status: 200, body: { requestId } };
      }),
    },
    {
      method: 'GET',
      path: /^\/v1\/requestStatus:retrieve$/,
      handle: authorized((request) => {
        const accepted = dm.requests.get(request.query.get('requestId') ?? '');
        if (!accepted) return invalid('INVALID_REQUEST_ID', 'The request id is not one of an accepted request.', 'request_id');
        const processing = accepted.readyAt > clock.now();
        const refusedCount = Object.values(accepted.refused).reduce((sum, count) => sum + count, 0);
        const status = processing ? 'PROCESSING' : refusedCount === 0 ? 'SUCCESS' : refusedCount === accepted.recordCount ? 'FAILED' : 'PARTIAL_SUCCESS';
        const counts = { recordCount: String(accepted.recordCount), userIdentifierCount: String(accepted.identifierCount) };
        const accepted_ = accepted.recordCount - refusedCount;
        return {
          status: 200,
          body: {
            requestStatusPerDestination: [
              {
                destination: accepted.destination,
                requestStatus: status,
                ...(!processing && refusedCount > 0
                  ? { errorInfo: { errorCounts: Object.entries(accepted.refused).map(([reason, count]) => ({ reason, recordCount: String(count) })) } }
                  : {}),
                ...(accepted.kind === 'events'
                  ? { eventsIngestionStatus: { recordCount: String(accepted.recordCount) } }
                  : accepted.kind === 'ingest'
                    ? {
                        audienceMembersIngestionStatus: {
                          userDataIngestionStatus: {
                            ...counts,
                            ...(!processing
                              ? { uploadMatchRateRange: accepted_ > 0 ? matchRateRange(accepted.matched / accepted_) : 'MATCH_RATE_RANGE_NOT_ELIGIBLE' }
                              : {}),
                          },
                        },
                      }
                    : accepted.kind === 'remove'
                      ? { audienceMembersRemovalStatus: { userDataRemovalStatus: counts } }
                      : { removeAllAudienceMembersStatus: {} }),
              },
            ],
          },
        };
      }),
    },
  ];
}

/** `POST /__sandbox/datamanager {processingMs}`: how long accepted requests stay PROCESSING; the answer holds the lists' sizes. */
export function configureDataManager(dm: DataManagerState, fields: Row): SandboxResponse {
  if (fields.processingMs !== undefined) dm.processingMs = Math.max(0, Number(fields.processingMs) || 0);
  const lists = [...dm.lists].flatMap(([cid, lists]) =>
    [...lists.values()].map((list) => ({ customerId: cid, id: list.id, displayName: list.displayName, members: list.members.size })),
  );
  return { status: 200, body: { processingMs: dm.processingMs, lists } };
}
