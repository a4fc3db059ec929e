import { secondsUntilGoogleDay } from '../../core/google-day.ts';
import { clock } from '../../core/clock.ts';
import { config } from '../../core/config.ts';
import { EuDeclarationRequired, PlatformAuthExpired, PlatformRateLimited, PlatformRejected, PlatformUnavailable, ScopeMissing } from '../../core/errors.ts';
import { log } from '../../core/logger.ts';
import { DATA_MANAGER_VERSION } from '../../core/versions.ts';
import { accessTokenFor, forgetAccessToken, tokenEndpoint } from '../oauth-token-client.ts';
import { callPlatform, fail, ok, parseJson, refreshAuth, retry, type Verdict } from '../upstream.ts';
import { type SearchadsSession, undeclaredCampaignIds } from './client.ts';
import { DATA_MANAGER_SCOPE } from './consent.ts';

export { DATA_MANAGER_SCOPE };

/**
 * Customer Match through Google's Data Manager API (docs/google-audiences.md): the list made in the API
 * itself, members added and removed in requests of at most 10,000, the whole list emptied as of a time,
 * and each request's outcome read back by its id. Its own scope (DATA_MANAGER_SCOPE), no developer
 * token; the account goes in the body's destination (ingestion) or the path (lists), and a manager in
 * `loginAccount` or the `login-account` header. Errors are google.rpc.Status bodies; the specific reason
 * is read from `BadRequest.fieldViolations[].reason` and `ErrorInfo.reason`, never from a message.
 */
export const MEMBERS_PER_REQUEST = 10_000;

/** A member's identifier as Google takes it: SHA-256 hex digests, but the address's region and postal code in clear. */
export interface GoogleAddress {
  givenName: string;
  familyName: string;
  regionCode: string;
  postalCode: string;
}
export type UserIdentifier = { emailAddress: string } | { phoneNumber: string } | { address: GoogleAddress };

export type Consent = { adUserData: 'CONSENT_GRANTED' | 'CONSENT_DENIED'; adPersonalization: 'CONSENT_GRANTED' | 'CONSENT_DENIED' };
export type MatchRateRange = string;

export interface RequestStatus {
  /** PROCESSING, SUCCESS, PARTIAL_SUCCESS, FAILED or REQUEST_STATUS_UNKNOWN */
  status: string;
  recordCount: number;
  /** records that failed after acceptance, by reason */
  errors: Record<string, number>;
  matchRateRange?: MatchRateRange;
}

interface StatusBody {
  error?: {
    code?: number;
    status?: string;
    message?: string;
    details?: Array<{
      '@type'?: string;
      reason?: string;
      metadata?: Record<string, string>;
      fieldViolations?: Array<{ field?: string; reason?: string; description?: string }>;
    }>;
  };
}

/**
 * How long a spent quota keeps the job parked: the per-minute one until the minute rolls over (at least
 * 60 s), the daily one until Google's next day begins (quotas reset at midnight Pacific time).
 */
export function quotaWaitSeconds(body: StatusBody | undefined, nowMs: number): number {
  const limit = body?.error?.details?.map((detail) => detail.metadata?.quota_limit ?? '').find(Boolean) ?? '';
  return /PerDay/i.test(limit) ? secondsUntilGoogleDay(nowMs) : 60;
}

const base = () => `${config().SEARCHADS_DATA_MANAGER_URL.replace(/\/+$/, '')}/${DATA_MANAGER_VERSION}`;
export const account = (id: string) => ({ accountType: 'GOOGLE_ADS', accountId: id });

/** The reasons a refusal carries, the specific (a field violation's) first. */
function reasonsOf(body: StatusBody | undefined): string[] {
  const details = body?.error?.details ?? [];
  return [
    ...details.flatMap((detail) => (detail.fieldViolations ?? []).map((violation) => violation.reason ?? '')),
    ...details.map((detail) => detail.reason ?? ''),
  ].filter(Boolean);
}

const DECLARATION_REASON = 'EU_POLITICAL_ADVERTISING_DECLARATION_REQUIRED';

/** One answer of the Data Manager API in the service's words (contracts: datamanager §4). */
export function classifyDataManagerResponse<T>(status: number, text: string, retrySafe: boolean): Verdict<T> {
  const parsed = parseJson(text) as StatusBody | undefined;
  if (status >= 200 && status < 300) return ok((parsed ?? {}) as T);
  const reasons = reasonsOf(parsed);
  const reason = reasons[0] ?? parsed?.error?.status ?? `HTTP_${status}`;
  if (status === 401)
    return refreshAuth(
      new PlatformAuthExpired('searchads', 'Google refused the connection’s access; reconnect the account with a connect link (/auth/create_link).'),
    );
  if (reasons.includes('ACCESS_TOKEN_SCOPE_INSUFFICIENT')) return fail(new ScopeMissing('searchads', DATA_MANAGER_SCOPE));
  if (status === 429) return fail(new PlatformRateLimited('searchads', quotaWaitSeconds(parsed, clock.now())));
  if (status >= 500 || status === 409) {
    const unavailable = new PlatformUnavailable('searchads', new Error(`${status} ${reason}`));
    return retrySafe ? retry(unavailable) : fail(unavailable);
  }
  const violation = parsed?.error?.details?.flatMap((detail) => detail.fieldViolations ?? [])[0];
  const message = `${reason}: ${violation?.description ?? parsed?.error?.message ?? 'Google refused the request.'}${violation?.field ? ` (at ${violation.field})` : ''}`;
  return fail(
    new PlatformRejected('searchads', message, {
      platformCode: reasons.includes(DECLARATION_REASON) ? DECLARATION_REASON : reason,
      platformStatus: status,
      ...(violation?.field ? { platformField: violation.field } : {}),
    }),
  );
}

export async function dataManagerCall<T>(
  session: SearchadsSession,
  call: { method: 'GET' | 'POST'; path: string; body?: unknown; manager?: boolean },
  retrySafe: boolean,
): Promise<T> {
  const endpoint = tokenEndpoint('searchads');
  let token: string | undefined;
  try {
    return await callPlatform<T>(session, {
      platform: 'searchads',
      request: async () => {
        token = await accessTokenFor(endpoint, session.refreshToken, session);
        const headers: Record<string, string> = { authorization: `Bearer ${token}` };
        if (call.body !== undefined) headers['content-type'] = 'application/json';
        if (call.manager && session.loginCustomerId) headers['login-account'] = `accountTypes/GOOGLE_ADS/accounts/${session.loginCustomerId}`;
        return {
          url: `${base()}/${call.path}`,
          init: { method: call.method, headers, ...(call.body !== undefined ? { body: JSON.stringify(call.body) } : {}) },
          logPath: `/${DATA_MANAGER_VERSION}/${call.path.split('?')[0]}`,
        };
      },
      classify: (response) => {
        const verdict = classifyDataManagerResponse<T>(response.status, response.text, retrySafe);
        if (verdict.outcome !== 'ok') log().warn('data manager error', { path: call.path.split('?')[0], status: response.status });
        return verdict;
      },
      retrySafe,
      secrets: () => [token, session.refreshToken],
      refreshAuth: async () => {
        if (token) forgetAccessToken(endpoint, session.refreshToken, token);
      },
    });
  } catch (error) {
    if (!(error instanceof PlatformRejected) || error.extra.platformCode !== DECLARATION_REASON) throw error;
    throw new EuDeclarationRequired(session.customerId, await undeclaredCampaignIds(session).catch(() => []), error);
  }
}

const destinations = (session: SearchadsSession, userListId?: string) => [
  {
    operatingAccount: account(session.customerId),
    ...(session.loginCustomerId ? { loginAccount: account(session.loginCustomerId) } : {}),
    ...(userListId ? { productDestinationId: userListId } : {}),
  },
];

const listsPath = (session: SearchadsSession) => `accountTypes/GOOGLE_ADS/accounts/${session.customerId}/userLists`;

/** A Customer Match contact list, named with our audience id (names are unique per account) and coded with it. */
export async function createUserList(session: SearchadsSession, list: { audienceId: string; name: string }): Promise<string> {
  const created = await dataManagerCall<{ id?: string }>(
    session,
    {
      method: 'POST',
      path: listsPath(session),
      manager: true,
      body: {
        displayName: `${list.name} (${list.audienceId})`,
        description: 'Customer Match list managed by the ad campaign API',
        integrationCode: list.audienceId,
        membershipStatus: 'OPEN',
        ingestedUserListInfo: { uploadKeyTypes: ['CONTACT_ID'], contactIdInfo: { dataSourceType: 'DATA_SOURCE_TYPE_FIRST_PARTY' } },
      },
    },
    false, // a create whose answer was lost is read back by its integration code, never sent blind
  );
  if (!created.id) throw new PlatformUnavailable('searchads', new Error('a user list without its id'));
  return String(created.id);
}

/** The lists coded with our audience id (a create whose answer was lost may have made one). */
export async function userListsCoded(session: SearchadsSession, audienceId: string): Promise<string[]> {
  const filter = encodeURIComponent(`integration_code = "${audienceId}"`);
  const found = await dataManagerCall<{ userLists?: Array<{ id?: string }> }>(
    session,
    { method: 'GET', path: `${listsPath(session)}?filter=${filter}&pageSize=10`, manager: true },
    true,
  );
  return (found.userLists ?? []).flatMap((list) => (list.id ? [String(list.id)] : []));
}

const membersOf = (members: readonly UserIdentifier[][]) => members.map((identifiers) => ({ userData: { userIdentifiers: identifiers } }));

/**
 * Members added (`ingest`, with the consent and the Customer Match terms the client stated) or removed.
 * Sending the same members again does no harm, so a request whose answer was lost is sent again as it was.
 */
export async function sendMembers(
  session: SearchadsSession,
  userListId: string,
  change: { kind: 'ingest'; consent: Consent } | { kind: 'remove' },
  members: readonly UserIdentifier[][],
): Promise<string> {
  const body =
    change.kind === 'ingest'
      ? {
          destinations: destinations(session, userListId),
          audienceMembers: membersOf(members),
          consent: change.consent,
          encoding: 'HEX',
          termsOfService: { customerMatchTermsOfServiceStatus: 'ACCEPTED' },
        }
      : { destinations: destinations(session, userListId), audienceMembers: membersOf(members), encoding: 'HEX' };
  const answer = await dataManagerCall<{ requestId?: string }>(session, { method: 'POST', path: `audienceMembers:${change.kind}`, body }, true);
  if (!answer.requestId) throw new PlatformUnavailable('searchads', new Error('an accepted request without its id'));
  return answer.requestId;
}

/** Every member last added before `asOf` removed (Google's replace: the new members were added after it). */
export async function removeAllMembers(session: SearchadsSession, userListId: string, asOf: Date): Promise<string> {
  const answer = await dataManagerCall<{ requestId?: string }>(
    session,
    { method: 'POST', path: 'audienceMembers:removeAll', body: { destinations: destinations(session, userListId), removeAsOfTime: asOf.toISOString() } },
    true,
  );
  if (!answer.requestId) throw new PlatformUnavailable('searchads', new Error('an accepted request without its id'));
  return answer.requestId;
}

interface StatusAnswer {
  requestStatusPerDestination?: Array<{
    requestStatus?: string;
    errorInfo?: { errorCounts?: Array<{ reason?: string; recordCount?: string }> };
    audienceMembersIngestionStatus?: { userDataIngestionStatus?: { recordCount?: string; uploadMatchRateRange?: string } };
    audienceMembersRemovalStatus?: { userDataRemovalStatus?: { recordCount?: string } };
    eventsIngestionStatus?: { recordCount?: string };
  }>;
}

/** How an accepted request ended, or that it is still processing. */
export async function requestStatus(session: SearchadsSession, requestId: string): Promise<RequestStatus> {
  let answer: StatusAnswer;
  try {
    answer = await dataManagerCall<StatusAnswer>(session, { method: 'GET', path: `requestStatus:retrieve?requestId=${encodeURIComponent(requestId)}` }, true);
  } catch (error) {
    if (error instanceof PlatformRejected && error.extra.platformCode === 'INVALID_REQUEST_ID')
      return { status: 'REQUEST_STATUS_UNKNOWN', recordCount: 0, errors: {} };
    throw error;
  }
  const status = answer.requestStatusPerDestination?.[0];
  const ingestion = status?.audienceMembersIngestionStatus?.userDataIngestionStatus;
  const removal = status?.audienceMembersRemovalStatus?.userDataRemovalStatus;
  const errors: Record<string, number> = {};
  for (const count of status?.errorInfo?.errorCounts ?? [])
    if (count.reason) errors[count.reason] = (errors[count.reason] ?? 0) + Number(count.recordCount ?? 0);
  return {
    status: status?.requestStatus ?? 'REQUEST_STATUS_UNKNOWN',
    recordCount: Number(ingestion?.recordCount ?? removal?.recordCount ?? status?.eventsIngestionStatus?.recordCount ?? 0),
    errors,
    ...(ingestion?.uploadMatchRateRange ? { matchRateRange: ingestion.uploadMatchRateRange } : {}),
  };
}
