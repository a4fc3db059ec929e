import { createHmac } from 'node:crypto';
import { config } from '../../core/config.ts';
import { PlatformAuthExpired, PlatformRateLimited, PlatformRejected, PlatformUnavailable } from '../../core/errors.ts';
import { log } from '../../core/logger.ts';
import { SOCIAL_API_VERSION, versionInUrl } from '../../core/versions.ts';
import { callPlatform, fail, ok, parseJson, retry, type CallBudget, type UpstreamResponse, type Verdict } from '../upstream.ts';

/**
 * The social platform's Graph-style API over fetch (keep-alive is undici's default). Every call
 * carries the token as `access_token` and, when SOCIAL_APP_SECRET is set, `appsecret_proof`.
 * Errors are dispatched on `error.code` / `error_subcode` / `is_transient` (docs/platforms.md, "Social"), not on the
 * HTTP status. Tokens never reach a log line or an error message.
 */
export interface SocialSession extends CallBudget {
  accessToken: string;
}

export type GraphParams = Record<string, unknown>;

/**
 * A parameter already serialised as JSON bytes (an audience batch of megabytes): the body is sent
 * around it in pieces, so the batch never becomes one large string, nor is it copied whole again.
 */
export class JsonBytes {
  readonly bytes: Uint8Array;

  constructor(bytes: Uint8Array) {
    this.bytes = bytes;
  }
}

const SPLICE_MARK = '\u0000json-bytes\u0000'; // no other value of a batch's body (numbers, key names, the token) is this
const SPLICE_POINT = JSON.stringify(SPLICE_MARK);
const PIECE_BYTES = 64 * 1024;

/** A POST or DELETE body: plain JSON, or JSON with one `JsonBytes` value streamed in its place. */
function jsonBody(params: GraphParams): () => Pick<RequestInit, 'body' | 'headers'> & { duplex?: 'half' } {
  let spliced: JsonBytes | undefined;
  const text = JSON.stringify(params, (_name, value: unknown) => {
    if (!(value instanceof JsonBytes)) return value;
    spliced = value;
    return SPLICE_MARK;
  });
  if (!spliced) return () => ({ headers: { 'content-type': 'application/json' }, body: text });
  const { bytes } = spliced;
  const at = text.indexOf(SPLICE_POINT);
  const before = Buffer.from(text.slice(0, at));
  const after = Buffer.from(text.slice(at + SPLICE_POINT.length));
  const length = before.length + bytes.length + after.length;
  return () => ({
    headers: { 'content-type': 'application/json', 'content-length': String(length) },
    duplex: 'half',
    body: (async function* () {
      yield before;
      for (let offset = 0; offset < bytes.length; offset += PIECE_BYTES) yield bytes.subarray(offset, offset + PIECE_BYTES);
      yield after;
    })() as unknown as RequestInit['body'],
  });
}

interface GraphErrorBody {
  message?: string;
  type?: string;
  code?: number;
  error_subcode?: number;
  error_user_title?: string;
  error_user_msg?: string;
  is_transient?: boolean;
  fbtrace_id?: string;
}

/** Insights' "reduce the amount of data" and its timeouts (docs/platforms.md, "Social: performance"). */
const TOO_MUCH_DATA = new Set(['100/1504018', '2/1504038', '100/1487534']);
const isTooMuchData = (code: number, subcode: number | undefined, message = '') =>
  TOO_MUCH_DATA.has(`${code}/${subcode}`) || code === 2637 || message.startsWith('Please reduce the amount of data');

const THROTTLE_CODES = new Set([4, 17, 32, 341, 613]);
const isThrottleCode = (code: number) => THROTTLE_CODES.has(code) || (code >= 80000 && code <= 80014);
const TRANSIENT_AUDIENCE_SUBCODES = new Set([1870145, 1870148]);
/** the wait when a throttled platform names none */
const DEFAULT_THROTTLE_WAIT_SECONDS = 60;

export function appSecretProof(accessToken: string, appSecret: string): string {
  return createHmac('sha256', appSecret).update(accessToken).digest('hex');
}

/** The parameters with the token and its proof, as every call sends them. */
export function signedParams(params: GraphParams, accessToken: string): GraphParams {
  const secret = config().SOCIAL_APP_SECRET;
  return { ...params, access_token: accessToken, ...(secret ? { appsecret_proof: appSecretProof(accessToken, secret) } : {}) };
}

function toQuery(params: GraphParams): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined) continue;
    query.set(name, typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value));
  }
  return query.toString();
}

/** Seconds the usage headers say to wait before calling again (0 when they name no wait). */
export function usageWaitSeconds(headers: Headers): number {
  let minutes = 0;
  const business = headers.get('x-business-use-case-usage');
  if (business) {
    try {
      for (const entries of Object.values(JSON.parse(business) as Record<string, Array<{ estimated_time_to_regain_access?: number }>>)) {
        for (const entry of entries ?? []) minutes = Math.max(minutes, Number(entry.estimated_time_to_regain_access) || 0);
      }
    } catch {
      // an unreadable usage header names no wait
    }
  }
  return minutes * 60;
}

function accountResetSeconds(headers: Headers): number {
  const account = headers.get('x-ad-account-usage');
  if (!account) return 0;
  try {
    return Number((JSON.parse(account) as { reset_time_duration?: number }).reset_time_duration) || 0;
  } catch {
    return 0;
  }
}

const redact = (text: string, secret: string) => (secret ? text.split(secret).join('[redacted]') : text);

/** Maps an error body onto the error table (docs/errors.md; docs/platforms.md "Social"): dispatched on code, subcode and is_transient. */
function classifyGraphError(error: GraphErrorBody, status: number, headers: Headers, accessToken: string): Verdict<never> {
  const code = Number(error.code);
  const subcode = error.error_subcode;
  const platformMessage = redact(error.error_user_msg ?? error.message ?? 'The social platform refused the request.', accessToken);
  const extra = {
    platformCode: code,
    ...(subcode !== undefined ? { platformSubcode: subcode } : {}),
    ...(error.fbtrace_id ? { fbtraceId: error.fbtrace_id } : {}),
  };

  if (code === 190 || code === 102) {
    return fail(
      new PlatformAuthExpired(
        'social',
        'The user’s social platform token has expired or was revoked; reconnect the account with a connect link (/auth/create_link).',
      ),
    );
  }
  if (isThrottleCode(code)) {
    // a wait the usage headers name is honoured (one longer than the request has fails at once as a
    // 429); without one, backoff, and the account's reset time is what the client is told
    const named = usageWaitSeconds(headers);
    if (named > 0) return retry(new PlatformRateLimited('social', named), named * 1000);
    return retry(new PlatformRateLimited('social', accountResetSeconds(headers) || DEFAULT_THROTTLE_WAIT_SECONDS));
  }
  if (code === 2635) {
    return fail(
      new PlatformRejected(
        'social',
        `The social platform refused API version ${versionInUrl(config().SOCIAL_API_URL, SOCIAL_API_VERSION)} as deprecated; the service must move to a newer version.`,
        extra,
      ),
    );
  }
  if (isTooMuchData(code, subcode, error.message)) {
    // not transient: the same request would fail the same way; the caller asks for less (a shorter range)
    return fail(
      new PlatformRejected('social', 'The social platform asks for less data at once: a shorter date range or fewer campaigns.', {
        ...extra,
        tooMuchData: true,
      }),
    );
  }
  if (code === 1 || code === 2 || (code === 2650 && subcode !== undefined && TRANSIENT_AUDIENCE_SUBCODES.has(subcode)) || error.is_transient === true) {
    return retry(new PlatformUnavailable('social'));
  }
  if (!Number.isFinite(code) && status >= 500) return retry(new PlatformUnavailable('social'));
  // the title ("Budget Is Too Low") goes with it for the callers that branch on it; it is never shown
  return fail(
    new PlatformRejected('social', platformMessage, extra, {
      userTitle: error.error_user_title,
      userMessage: error.error_user_msg === undefined ? undefined : redact(error.error_user_msg, accessToken),
    }),
  );
}

/**
 * One answer of the Graph API. A creating call (not `retrySafe`) is sent again only when the platform
 * surely did not act: it was throttled.
 */
export function classifyGraphResponse<T>(response: UpstreamResponse, options: { retrySafe: boolean; accessToken: string }): Verdict<GraphResult<T>> {
  const body = parseJson(response.text);
  if (body === undefined) {
    const failure = new PlatformUnavailable('social');
    return response.status >= 500 && options.retrySafe ? retry(failure) : fail(failure);
  }
  const graphError = (body as { error?: GraphErrorBody } | null)?.error;
  if (!graphError && response.status < 400) return ok({ body: body as T, headers: response.headers });
  log().warn('social platform error', { status: response.status, platformCode: graphError?.code, platformSubcode: graphError?.error_subcode });
  const verdict = classifyGraphError(graphError ?? {}, response.status, response.headers, options.accessToken);
  if (verdict.outcome === 'retry' && !options.retrySafe && !(verdict.error instanceof PlatformRateLimited)) return fail(verdict.error);
  return verdict;
}

export interface GraphResult<T> {
  body: T;
  headers: Headers;
}

/**
 * One Graph call with retries. `retrySafe` says whether a timed-out attempt may be sent again:
 * reads may; creating calls may not (the platform may have acted).
 */
export async function graphRequest<T>(
  session: SocialSession,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  params: GraphParams,
  options: { retrySafe?: boolean } = {},
): Promise<GraphResult<T>> {
  const retrySafe = options.retrySafe ?? method === 'GET';
  const base = config().SOCIAL_API_URL.replace(/\/+$/, '');
  const signed = signedParams(params, session.accessToken);
  const url = method === 'GET' ? `${base}/${path}?${toQuery(signed)}` : `${base}/${path}`;
  const body = method === 'GET' ? undefined : jsonBody(Object.fromEntries(Object.entries(signed).filter(([, value]) => value !== undefined)));
  return callPlatform(session, {
    platform: 'social',
    // a streamed body is read once: each attempt gets its own
    request: () => ({ url, init: { method, ...body?.() }, logPath: `/${path}` }),
    classify: (response) => classifyGraphResponse<T>(response, { retrySafe, accessToken: session.accessToken }),
    retrySafe,
    secrets: () => [session.accessToken],
  });
}
