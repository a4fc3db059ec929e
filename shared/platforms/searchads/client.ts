import type { Context } from 'aws-lambda';
import { config } from '../../core/config.ts';
import {
  EuDeclarationRequired,
  PlatformAccessNotApproved,
  PlatformAuthExpired,
  PlatformRateLimited,
  PlatformRejected,
  PlatformUnavailable,
} from '../../core/errors.ts';
import { raiseOperatorAlarm } from '../../core/operator-alarms.ts';
import { spendSearchadsOperation } from '../../store/searchads-operations.ts';
import { log } from '../../core/logger.ts';
import { openConnection, type User } from '../../store/users.ts';
import { budgetFrom, callPlatform, fail, ok, parseJson, refreshAuth, retry, type CallBudget, type Verdict } from '../upstream.ts';
import { accessTokenFor, forgetAccessToken, tokenEndpoint } from '../oauth-token-client.ts';

/**
 * The search-ads REST interface over fetch (docs/platforms.md, "Search ads"): bearer token from the refresh token,
 * `login-customer-id` when the connection names a manager account, `developer-token` only when
 * configured. Errors are GoogleAdsFailure bodies (sometimes wrapped in the stream's array).
 */
export interface SearchadsSession extends CallBudget {
  customerId: string;
  refreshToken: string;
  loginCustomerId?: string;
  /** whose share of the project's daily operations each call spends (none while connecting) */
  tenantId?: string;
}

export function searchadsSession(user: User, context: Context): SearchadsSession {
  const connection = openConnection(user, 'searchads');
  return {
    ...budgetFrom(context),
    customerId: connection.customerId,
    refreshToken: connection.refreshToken,
    loginCustomerId: connection.loginCustomerId,
    tenantId: user.tenantId,
  };
}

/** How many of the project's daily operations a call costs: one a search, one each mutate operation. */
const operationsOf = (body: unknown): number => {
  const { mutateOperations, operations } = (body ?? {}) as { mutateOperations?: unknown; operations?: unknown };
  const list = Array.isArray(mutateOperations) ? mutateOperations : Array.isArray(operations) ? operations : undefined;
  return Math.max(1, list?.length ?? 1);
};

const NOT_APPROVED = 'CLOUD_PROJECT_NOT_APPROVED_FOR_PRODUCTION';

interface AdsError {
  errorCode?: Record<string, string>;
  message?: string;
  location?: { fieldPathElements?: Array<{ fieldName: string; index?: number }> };
  details?: { quotaErrorDetails?: { retryDelay?: string }; budgetPerDayMinimumErrorDetails?: { minimumBudgetAmountMicros?: string } };
}

interface StatusBody {
  error?: { code?: number; status?: string; message?: string; details?: Array<{ '@type'?: string; errors?: AdsError[]; requestId?: string; reason?: string }> };
}

export function fieldPath(elements: Array<{ fieldName: string; index?: number }> = []): string {
  return elements.map((element) => (element.index === undefined ? element.fieldName : `${element.fieldName}[${element.index}]`)).join('.');
}

/**
 * One answer of the Ads API (docs/platforms.md, "Search ads"). An error reads `category.ENUM: message (at path)
 * [request-id id]` from its first GoogleAdsFailure entry; a 401 that is not a revoked grant asks for
 * a fresh access token.
 */
export function classifyAdsResponse<T>(status: number, text: string, retrySafe: boolean): Verdict<T> {
  const parsed = parseJson(text) as StatusBody | StatusBody[] | undefined;
  if (status === 200) return parsed === undefined && text !== '' ? fail(new PlatformUnavailable('searchads')) : ok((parsed ?? {}) as T);
  const body = Array.isArray(parsed) ? parsed.find((item) => item.error) : parsed;
  const failure = body?.error?.details?.find((detail) => detail.errors);
  const first = failure?.errors?.[0];
  const [category, value] = Object.entries(first?.errorCode ?? {})[0] ?? [];
  const requestId = failure?.requestId;
  if (status === 401) {
    if (value === 'OAUTH_TOKEN_REVOKED' || value === 'NOT_ADS_USER') {
      return fail(
        new PlatformAuthExpired('searchads', 'The user’s search-ads account refused access; reconnect the account with a connect link (/auth/create_link).'),
      );
    }
    return refreshAuth(
      new PlatformAuthExpired(
        'searchads',
        'The search-ads platform refused a fresh access token; reconnect the account with a connect link (/auth/create_link).',
      ),
    );
  }
  if (status === 429) {
    const delay = Number(/^(\d+(?:\.\d+)?)s$/.exec(first?.details?.quotaErrorDetails?.retryDelay ?? '')?.[1] ?? 0);
    // the daily quota is not retried within a request; a short wait the platform names is honoured
    if (value === 'RESOURCE_EXHAUSTED') return fail(new PlatformRateLimited('searchads', delay || 60));
    return retry(new PlatformRateLimited('searchads', delay || 5), delay * 1000);
  }
  if (status === 409 || status >= 500) {
    const unavailable = new PlatformUnavailable('searchads', new Error(`${status} ${category ?? ''}.${value ?? ''}`));
    // a concurrent-modification 409 changed nothing and is always safe to send again
    return retrySafe || status === 409 ? retry(unavailable) : fail(unavailable);
  }
  if (value === NOT_APPROVED) {
    raiseOperatorAlarm('PlatformAccessNotApproved');
    return fail(
      new PlatformAccessNotApproved(
        'searchads',
        'Google refused the service’s Cloud project: its Google Ads API access level is not approved for production accounts. This is for the service’s operator to mend (docs/going-live.md); nothing of this request was changed.',
      ),
    );
  }
  const code = category ? `${category}.${value}` : (body?.error?.status ?? `HTTP_${status}`);
  const path = fieldPath(first?.location?.fieldPathElements);
  const message = `${code}: ${first?.message ?? body?.error?.message ?? 'The search-ads platform refused the request.'}${path ? ` (at ${path})` : ''}${requestId ? ` [request-id ${requestId}]` : ''}`;
  // the error's details go with it for the callers that read them (a budget's minimum); they are never shown as they are
  return fail(
    new PlatformRejected(
      'searchads',
      message,
      { platformCode: code, ...(path ? { fieldPath: path } : {}), ...(requestId ? { requestId } : {}) },
      { details: first?.details },
    ),
  );
}

/**
 * One Ads API call on the session's customer (a POST with a JSON body); a refused access token is
 * refreshed once. A write the account's EU political-advertising block refuses (any campaign or budget
 * mutate while one of its campaigns is undeclared) becomes EU_POLITICAL_DECLARATION_REQUIRED naming
 * the undeclared campaigns, read once (reads are not blocked).
 */
export async function adsRequest<T>(session: SearchadsSession, method: string, body: unknown, options: { retrySafe: boolean }): Promise<T> {
  try {
    return await adsCall<T>(session, { httpMethod: 'POST', path: `customers/${session.customerId}/${method}`, body }, options);
  } catch (error) {
    if (!(error instanceof PlatformRejected) || error.extra.platformCode !== DECLARATION_BLOCK) throw error;
    const undeclared = await undeclaredCampaignIds(session).catch(() => []);
    throw new EuDeclarationRequired(session.customerId, undeclared, error);
  }
}

/** The refusal of every campaign write in an account with an undeclared campaign (contracts: search ads §2.3a). */
export const DECLARATION_BLOCK = 'mutateError.EU_POLITICAL_ADVERTISING_DECLARATION_REQUIRED';

const UNDECLARED_QUERY =
  'SELECT campaign.id, campaign.name, campaign.missing_eu_political_advertising_declaration FROM campaign ' +
  "WHERE campaign.missing_eu_political_advertising_declaration = TRUE AND campaign.status != 'REMOVED'";

/** The account's campaigns that lack the EU political-advertising declaration (every page). */
export async function undeclaredCampaignIds(session: SearchadsSession): Promise<string[]> {
  const ids: string[] = [];
  let pageToken: string | undefined;
  do {
    const page = await adsCall<{ results?: Array<{ campaign?: { id?: string } }>; nextPageToken?: string }>(
      session,
      { httpMethod: 'POST', path: `customers/${session.customerId}/googleAds:search`, body: { query: UNDECLARED_QUERY, ...(pageToken ? { pageToken } : {}) } },
      { retrySafe: true },
    );
    ids.push(...(page.results ?? []).flatMap((row) => (row.campaign?.id ? [String(row.campaign.id)] : [])));
    pageToken = page.nextPageToken || undefined;
  } while (pageToken);
  return ids.sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0));
}

/** One Ads API call on any path (`customers:listAccessibleCustomers` is a GET on no customer). */
export async function adsCall<T>(
  session: Omit<SearchadsSession, 'customerId'>,
  call: { httpMethod: 'GET' | 'POST'; path: string; body?: unknown },
  options: { retrySafe: boolean },
): Promise<T> {
  if (session.tenantId) await spendSearchadsOperation(session.tenantId, operationsOf(call.body));
  const url = `${config().SEARCHADS_API_URL.replace(/\/+$/, '')}/${call.path}`;
  const logPath = `/${call.path}`;
  const endpoint = tokenEndpoint('searchads');
  let token: string | undefined;
  return callPlatform(session, {
    platform: 'searchads',
    request: async () => {
      token = await accessTokenFor(endpoint, session.refreshToken, session);
      const headers: Record<string, string> = { authorization: `Bearer ${token}` };
      if (call.body !== undefined) headers['content-type'] = 'application/json';
      if (session.loginCustomerId) headers['login-customer-id'] = session.loginCustomerId;
      const developerToken = config().SEARCHADS_DEVELOPER_TOKEN;
      if (developerToken) headers['developer-token'] = developerToken;
      return { url, init: { method: call.httpMethod, headers, ...(call.body !== undefined ? { body: JSON.stringify(call.body) } : {}) }, logPath };
    },
    classify: (response) => {
      const verdict = classifyAdsResponse<T>(response.status, response.text, options.retrySafe);
      if (verdict.outcome !== 'ok')
        log().warn('searchads platform error', { path: logPath, status: response.status, requestId: response.headers.get('request-id') ?? undefined });
      return verdict;
    },
    retrySafe: options.retrySafe,
    secrets: () => [token, session.refreshToken],
    refreshAuth: async () => {
      if (token) forgetAccessToken(endpoint, session.refreshToken, token);
    },
  });
}
