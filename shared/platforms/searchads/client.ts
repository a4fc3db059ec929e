import type { Context } from 'aws-lambda';
import { config } from '../../config.ts';
import { PlatformAuthExpired, PlatformRateLimited, PlatformRejected, PlatformUnavailable, type PlatformError } from '../../errors.ts';
import { log } from '../../http/logger.ts';
import { openConnection, type User } from '../../store/users.ts';
import { budgetFrom, TransientFailure, upstreamFetch, withRetries, type CallBudget } from '../upstream.ts';
import { accessTokenFor, forgetAccessToken } from '../oauth-token-client.ts';
import { searchadsTokenEndpoint } from './oauth.ts';

/**
 * The search-ads REST interface over fetch (contract §1, §4): bearer token from the refresh token,
 * `login-customer-id` when the connection names a manager account, `developer-token` only when
 * configured. Errors are GoogleAdsFailure bodies (sometimes wrapped in the stream's array).
 */
export interface SearchadsSession extends CallBudget {
  customerId: string;
  refreshToken: string;
  loginCustomerId?: string;
}

export function searchadsSession(user: User, context: Context): SearchadsSession {
  const connection = openConnection(user, 'searchads');
  return { ...budgetFrom(context), customerId: connection.customerId, refreshToken: connection.refreshToken, loginCustomerId: connection.loginCustomerId };
}

interface AdsError {
  errorCode?: Record<string, string>;
  message?: string;
  location?: { fieldPathElements?: Array<{ fieldName: string; index?: number }> };
  details?: { quotaErrorDetails?: { retryDelay?: string } };
}

interface StatusBody {
  error?: { code?: number; status?: string; message?: string; details?: Array<{ '@type'?: string; errors?: AdsError[]; requestId?: string; reason?: string }> };
}

export function fieldPath(elements: Array<{ fieldName: string; index?: number }> = []): string {
  return elements.map((element) => (element.index === undefined ? element.fieldName : `${element.fieldName}[${element.index}]`)).join('.');
}

/** The first error as `category.ENUM: message (at path) [request-id id]` (contract §4.5). */
export function classifyAdsError(status: number, text: string, retrySafe: boolean): PlatformError | TransientFailure | 'TOKEN_REFUSED' {
  let parsed: StatusBody | StatusBody[] | undefined;
  try {
    parsed = JSON.parse(text) as StatusBody | StatusBody[];
  } catch {
    parsed = undefined;
  }
  const body = Array.isArray(parsed) ? parsed.find((item) => item.error) : parsed;
  const failure = body?.error?.details?.find((detail) => detail.errors);
  const first = failure?.errors?.[0];
  const [category, value] = Object.entries(first?.errorCode ?? {})[0] ?? [];
  const requestId = failure?.requestId;
  if (status === 401) {
    if (value === 'OAUTH_TOKEN_REVOKED' || value === 'NOT_ADS_USER') {
      return new PlatformAuthExpired('searchads', 'The user’s search-ads account refused access; reconnect the account with create_user.');
    }
    return 'TOKEN_REFUSED';
  }
  if (status === 429) {
    const delay = Number(/^(\d+(?:\.\d+)?)s$/.exec(first?.details?.quotaErrorDetails?.retryDelay ?? '')?.[1] ?? 0);
    if (value === 'RESOURCE_EXHAUSTED' || delay > 30) return new PlatformRateLimited('searchads', delay || 60); // longer than a request can wait
    return new TransientFailure(new PlatformRateLimited('searchads', delay || 5), delay * 1000);
  }
  if (status === 409 || status >= 500) {
    const unavailable = new PlatformUnavailable('searchads', new Error(`${status} ${category ?? ''}.${value ?? ''}`));
    return retrySafe || status === 409 ? new TransientFailure(unavailable) : unavailable;
  }
  const code = category ? `${category}.${value}` : (body?.error?.status ?? `HTTP_${status}`);
  const path = fieldPath(first?.location?.fieldPathElements);
  const message = `${code}: ${first?.message ?? body?.error?.message ?? 'The search-ads platform refused the request.'}${path ? ` (at ${path})` : ''}${requestId ? ` [request-id ${requestId}]` : ''}`;
  return new PlatformRejected('searchads', message, { platformCode: code, ...(path ? { fieldPath: path } : {}), ...(requestId ? { requestId } : {}) });
}

/** One Ads API call (all are POST with a JSON body), with one token refresh on a 401. */
export async function adsRequest<T>(session: SearchadsSession, method: string, body: unknown, options: { retrySafe: boolean }): Promise<T> {
  const url = `${config().SEARCHADS_API_URL.replace(/\/+$/, '')}/customers/${session.customerId}/${method}`;
  for (let refreshed = false; ; refreshed = true) {
    const token = await accessTokenFor(searchadsTokenEndpoint(), session.refreshToken, session);
    const headers: Record<string, string> = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    if (session.loginCustomerId) headers['login-customer-id'] = session.loginCustomerId;
    const developerToken = config().SEARCHADS_DEVELOPER_TOKEN;
    if (developerToken) headers['developer-token'] = developerToken;
    const outcome = await withRetries(session, async () => {
      const response = await upstreamFetch('searchads', url, { method: 'POST', headers, body: JSON.stringify(body) }, session, {
        retrySafe: options.retrySafe,
        logPath: `/customers/${session.customerId}/${method}`,
      });
      if (response.status === 200) {
        try {
          return { ok: JSON.parse(response.text || '{}') as T };
        } catch {
          throw new PlatformUnavailable('searchads');
        }
      }
      const classified = classifyAdsError(response.status, response.text, options.retrySafe);
      log().warn('searchads platform error', { method, status: response.status, requestId: response.headers.get('request-id') ?? undefined });
      if (classified === 'TOKEN_REFUSED') return { refused: true as const };
      throw classified;
    });
    if ('ok' in outcome) return outcome.ok as T;
    forgetAccessToken(searchadsTokenEndpoint(), session.refreshToken, token);
    if (refreshed) throw new PlatformAuthExpired('searchads', 'The search-ads platform refused a fresh access token; reconnect the account with create_user.');
  }
}
