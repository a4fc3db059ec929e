import { redactCredentials, redactDeep } from '../core/redaction.ts';
import { clock } from '../core/clock.ts';
import { config } from '../core/config.ts';
import { PlatformTimeout, PlatformUnavailable, type Platform, type PlatformError } from '../core/errors.ts';
import { log } from '../core/logger.ts';

/**
 * The upstream core every platform adapter shares. An adapter describes one call (how to build the
 * request, a pure classifier of the answer, whether it may be repeated, how to refresh its token);
 * `callPlatform` runs it: a deadline taken from the Lambda's remaining time, a timeout per attempt,
 * bounded retries with jittered backoff that honour the platform's own wait and never sleep past the
 * deadline, and at most one token refresh. Waits go through the injectable clock.
 */

/** Time kept back from the function's remaining time to answer the client. */
export const ANSWER_MARGIN_MS = 1_000;

export interface CallBudget {
  /** epoch ms by which every upstream call must be done */
  deadline: number;
}

export function budgetFrom(context: { getRemainingTimeInMillis(): number }): CallBudget {
  return { deadline: clock.now() + context.getRemainingTimeInMillis() - ANSWER_MARGIN_MS };
}

/** What a classifier makes of one answer. */
export type Verdict<T> =
  | { outcome: 'ok'; value: T }
  /** worth another attempt after at least `afterMs`; `error` is the answer when none is left */
  | { outcome: 'retry'; error: PlatformError; afterMs: number }
  /** the access token was refused: refresh it once and replay; `error` when that is not possible */
  | { outcome: 'refreshAuth'; error: PlatformError }
  | { outcome: 'fail'; error: PlatformError };

export const ok = <T>(value: T): Verdict<T> => ({ outcome: 'ok', value });
export const retry = (error: PlatformError, afterMs = 0): Verdict<never> => ({ outcome: 'retry', error, afterMs });
export const refreshAuth = (error: PlatformError): Verdict<never> => ({ outcome: 'refreshAuth', error });
export const fail = (error: PlatformError): Verdict<never> => ({ outcome: 'fail', error });

export interface RetryPolicy {
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 3, baseDelayMs: 300, maxDelayMs: 5_000 };

export interface UpstreamResponse {
  status: number;
  headers: Headers;
  text: string;
}

export interface UpstreamRequest {
  url: string;
  init: RequestInit;
  /** what the access log shows: never a URL with a query (it may carry a token) */
  logPath: string;
}

export interface PlatformCall<T> {
  platform: Platform;
  /** built again for every attempt, so a refreshed token is used */
  request: () => UpstreamRequest | Promise<UpstreamRequest>;
  classify: (response: UpstreamResponse) => Verdict<T>;
  /** whether an attempt whose answer never came (timeout, reset) may be sent again */
  retrySafe: boolean;
  refreshAuth?: () => Promise<void>;
  policy?: RetryPolicy;
  /** one attempt's time limit, when not UPSTREAM_TIMEOUT_MS (a file streamed to the platform) */
  attemptTimeoutMs?: number;
  /** the session's secrets (its tokens): a refusal that echoes one never carries it further */
  secrets?: () => Array<string | undefined>;
}

/**
 * A platform's refusal as it may be shown: its message, what it carries for the callers (a title and a
 * user message, the platform's detail) without the session's tokens, our apps' secrets or anything
 * shaped like a credential, which a platform may echo (a token in an "invalid token …" text, a client
 * secret or refresh token in an OAuth error).
 */
export function redactSecrets<E extends Error>(error: E, secrets: Array<string | undefined>): E {
  error.message = redactCredentials(error.message, secrets);
  const carried = error as unknown as { cause?: unknown; extra?: Record<string, unknown> };
  if (carried.cause !== undefined && !(carried.cause instanceof Error)) carried.cause = redactDeep(carried.cause, secrets);
  if (carried.extra) Object.assign(carried.extra, redactDeep(carried.extra, secrets));
  return error;
}

/** One HTTP exchange within the per-call timeout and the deadline; a lost answer is a verdict too. */
async function attempt<T>(budget: CallBudget, call: PlatformCall<T>): Promise<Verdict<T>> {
  const remaining = budget.deadline - clock.now();
  if (remaining <= 0) return fail(new PlatformTimeout(call.platform));
  const { url, init, logPath } = await call.request();
  const method = init.method ?? 'GET';
  const started = performance.now();
  let response: UpstreamResponse;
  try {
    const answer = await fetch(url, { ...init, signal: AbortSignal.timeout(Math.min(call.attemptTimeoutMs ?? config().UPSTREAM_TIMEOUT_MS, remaining)) });
    response = { status: answer.status, headers: answer.headers, text: await answer.text() };
  } catch (error) {
    const name = (error as Error).name;
    const timedOut = name === 'TimeoutError' || name === 'AbortError';
    log().warn('upstream call failed', {
      platform: call.platform,
      method,
      path: logPath,
      reason: timedOut ? 'timeout' : name,
      durationMs: Math.round(performance.now() - started),
    });
    const failure = timedOut ? new PlatformTimeout(call.platform) : new PlatformUnavailable(call.platform);
    return call.retrySafe ? retry(failure) : fail(failure);
  }
  log().info('upstream call', { platform: call.platform, method, path: logPath, status: response.status, durationMs: Math.round(performance.now() - started) });
  return call.classify(response);
}

/** The one retry loop: runs `call` until its classifier says ok, or attempts, time or refreshes run out; what it throws is redacted. */
export async function callPlatform<T>(budget: CallBudget, call: PlatformCall<T>): Promise<T> {
  try {
    return await callWithRetries(budget, call);
  } catch (error) {
    throw error instanceof Error ? redactSecrets(error, call.secrets?.() ?? []) : error;
  }
}

async function callWithRetries<T>(budget: CallBudget, call: PlatformCall<T>): Promise<T> {
  const policy = call.policy ?? DEFAULT_RETRY_POLICY;
  let refreshed = false;
  for (let attemptNumber = 1; ; ) {
    const verdict = await attempt(budget, call);
    switch (verdict.outcome) {
      case 'ok':
        return verdict.value;
      case 'fail':
        throw verdict.error;
      case 'refreshAuth':
        if (refreshed || !call.refreshAuth) throw verdict.error;
        refreshed = true;
        await call.refreshAuth();
        continue;
      case 'retry': {
        if (attemptNumber >= policy.maxAttempts) throw verdict.error;
        const delay = Math.max(verdict.afterMs, retryDelay(policy, attemptNumber));
        if (clock.now() + delay >= budget.deadline) throw verdict.error;
        log().info('upstream retry', { platform: call.platform, code: verdict.error.code, attempt: attemptNumber, delayMs: Math.round(delay) });
        await clock.sleep(delay);
        attemptNumber++;
      }
    }
  }
}

/** Full-jitter exponential backoff: a random wait below min(max, base × 2^(n−1)). */
export function retryDelay(policy: RetryPolicy, attemptNumber: number): number {
  return clock.jitter(Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attemptNumber - 1)));
}

/** The body as JSON, or undefined when it is none. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
