import { Readable } from 'node:stream';
import { clock } from '../../core/clock.ts';
import { config } from '../../core/config.ts';
import { PlatformAuthExpired, PlatformRateLimited, PlatformRejected, PlatformUnavailable } from '../../core/errors.ts';
import { log } from '../../core/logger.ts';
import { callPlatform, fail, ok, parseJson, refreshAuth, retry, type CallBudget, type RetryPolicy, type UpstreamRequest, type Verdict } from '../upstream.ts';

/**
 * The professional network's Rest.li API over fetch (docs/platforms.md, "Professional"): bearer token,
 * `LinkedIn-Version` from configuration, protocol 2.0.0. Errors are dispatched on status and
 * `code`/`serviceErrorCode`, never on message wording. An expired token (65602) is refreshed once
 * when the connection has a refresh token, and the call replayed.
 */
export interface ProfessionalSession extends CallBudget {
  accessToken: string;
  /** refreshes the access token (and stores it); undefined when the connection has no refresh token */
  refresh?: () => Promise<string>;
}

export interface RestliResponse {
  status: number;
  headers: Headers;
  body: unknown;
}

interface RestliErrorBody {
  status?: number;
  serviceErrorCode?: number;
  code?: string;
  message?: string;
  errorDetails?: { inputErrors?: Array<{ description?: string; code?: string; input?: { inputPath?: { fieldPath?: string } } }> };
}

const EXPIRED_TOKEN = 65602;

export const PROFESSIONAL_RETRY_POLICY: RetryPolicy = { maxAttempts: 3, baseDelayMs: 1_000, maxDelayMs: 8_000 };

/** The daily quotas reset at 00:00 UTC; the platform names no other wait. */
export function secondsUntilUtcMidnight(now = clock.date()): number {
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return Math.ceil((midnight - now.getTime()) / 1000);
}

function describe(status: number, error: RestliErrorBody): string {
  const code = error.code ?? (error.serviceErrorCode !== undefined ? String(error.serviceErrorCode) : undefined);
  const field = error.errorDetails?.inputErrors?.[0];
  const detail = field ? ` (${field.input?.inputPath?.fieldPath ?? 'field'}: ${field.description ?? field.code ?? 'invalid'})` : '';
  return `The professional network answered ${status}${code ? ` ${code}` : ''}: ${error.message ?? 'request refused'}${detail}`;
}

export interface RestliCallOptions {
  retrySafe: boolean;
  /** a 404 means "not there yet" (a segment created seconds ago) and is waited for */
  notFoundIsTransient?: boolean;
}

/** The wait before asking again for an object the platform has not made visible yet. */
const NOT_YET_VISIBLE_WAIT_MS = 2_000;

/** One answer of the Rest.li API, dispatched on status and `code`/`serviceErrorCode`, never on wording. */
export function classifyRestliResponse(status: number, error: RestliErrorBody, options: RestliCallOptions, headers?: Headers): Verdict<never> {
  const fieldPath = error.errorDetails?.inputErrors?.[0]?.input?.inputPath?.fieldPath;
  const extra = {
    platformStatus: status,
    ...(error.code ? { platformCode: error.code } : {}),
    ...(fieldPath ? { fieldPath } : {}),
    ...(error.serviceErrorCode !== undefined ? { serviceErrorCode: error.serviceErrorCode } : {}),
  };
  if (status === 401) {
    if (error.serviceErrorCode === EXPIRED_TOKEN) {
      return refreshAuth(
        new PlatformAuthExpired(
          'professional',
          'The user’s professional-network token has expired; reconnect the account with a connect link (/auth/create_link).',
        ),
      );
    }
    return fail(
      new PlatformAuthExpired(
        'professional',
        'The user’s professional-network token is invalid or was revoked; reconnect the account with a connect link (/auth/create_link).',
      ),
    );
  }
  if (status === 426) {
    return fail(
      new PlatformRejected(
        'professional',
        `The professional network refused API version ${config().PROFESSIONAL_API_VERSION} (${error.code ?? 'NONEXISTENT_VERSION'}); the service must move PROFESSIONAL_API_VERSION forward.`,
        extra,
      ),
    );
  }
  if (status === 429) {
    if (error.code === 'SEGMENT_LIMIT_EXCEEDED')
      return fail(new PlatformRejected('professional', `${describe(status, error)}. Delete unused audiences first.`, extra));
    // the platform names no wait (its quotas reset at midnight UTC); a Retry-After, when one comes, is honoured
    const named = Number(headers?.get('retry-after'));
    return retry(new PlatformRateLimited('professional', named > 0 ? named : secondsUntilUtcMidnight()));
  }
  if (status >= 500) {
    const unavailable = new PlatformUnavailable('professional');
    return options.retrySafe ? retry(unavailable) : fail(unavailable);
  }
  const rejected = new PlatformRejected('professional', describe(status, error), extra);
  return status === 404 && options.notFoundIsTransient ? retry(rejected, NOT_YET_VISIBLE_WAIT_MS) : fail(rejected);
}

function parseBody(text: string): unknown {
  if (!text) return null;
  return parseJson(text) ?? { message: text.slice(0, 200) };
}

/**
 * One call with retries. `url` is a path under PROFESSIONAL_API_URL or an absolute URL (the upload
 * URL the platform hands out). `rawBody` sends bytes as they are (the CSV upload). An expired token
 * is refreshed once when the session can, and the call replayed.
 */
/** A body read as it is sent: a stream made anew for each attempt, and its exact length. */
export interface StreamedBody {
  stream: () => AsyncIterable<Uint8Array>;
  length: number;
}

export async function restliRequest(
  session: ProfessionalSession,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  options: {
    /** a pre-signed upload URL: sent without the bearer token */
    anonymous?: boolean;
    json?: unknown;
    rawBody?: { contentType: string; data: string | Buffer | StreamedBody };
    /** Rest.li's method header, for a POST that is not a create (PARTIAL_UPDATE, BATCH_CREATE) */
    restliMethod?: 'PARTIAL_UPDATE' | 'BATCH_CREATE';
    retrySafe?: boolean;
    restli?: boolean;
    policy?: RetryPolicy;
    notFoundIsTransient?: boolean;
    attemptTimeoutMs?: number;
  } = {},
): Promise<RestliResponse> {
  const absolute = /^https?:\/\//.test(url) ? url : `${config().PROFESSIONAL_API_URL.replace(/\/+$/, '')}${url}`;
  const logPath = new URL(absolute).pathname;
  const callOptions: RestliCallOptions = { retrySafe: options.retrySafe ?? method === 'GET', notFoundIsTransient: options.notFoundIsTransient };
  const request = (): UpstreamRequest => {
    const headers: Record<string, string> = options.anonymous ? {} : { authorization: `Bearer ${session.accessToken}` };
    if (options.restli !== false) {
      headers['linkedin-version'] = config().PROFESSIONAL_API_VERSION;
      headers['x-restli-protocol-version'] = '2.0.0';
    }
    if (options.restliMethod) headers['x-restli-method'] = options.restliMethod;
    let body: string | Buffer | undefined;
    if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.json);
    } else if (options.rawBody) {
      headers['content-type'] = options.rawBody.contentType;
      const { data } = options.rawBody;
      // a stream goes out as it is read, with its length declared (fetch needs half duplex for a streamed body)
      if (typeof data === 'object' && 'stream' in data) {
        headers['content-length'] = String(data.length);
        return {
          url: absolute,
          init: { method, headers, body: Readable.toWeb(Readable.from(data.stream())) as ReadableStream, duplex: 'half' } as RequestInit,
          logPath,
        };
      }
      body = data;
    }
    return { url: absolute, init: { method, headers, body }, logPath };
  };
  const refresh = session.refresh;
  return callPlatform(session, {
    platform: 'professional',
    request,
    classify: (response) => {
      const parsed = parseBody(response.text);
      if (response.status < 400) return ok({ status: response.status, headers: response.headers, body: parsed });
      log().warn('professional platform error', { path: logPath, status: response.status, platformCode: (parsed as RestliErrorBody | null)?.code });
      return classifyRestliResponse(response.status, (parsed ?? {}) as RestliErrorBody, callOptions, response.headers);
    },
    retrySafe: callOptions.retrySafe,
    secrets: () => [session.accessToken],
    policy: options.policy ?? PROFESSIONAL_RETRY_POLICY,
    attemptTimeoutMs: options.attemptTimeoutMs,
    ...(refresh
      ? {
          refreshAuth: async () => {
            session.accessToken = await refresh();
          },
        }
      : {}),
  });
}
