import { clock } from '../clock.ts';
import { config } from '../config.ts';
import { PlatformError, PlatformTimeout, PlatformUnavailable, type Platform } from '../errors.ts';
import { log } from '../http/logger.ts';

/**
 * What every platform adapter shares: a deadline taken from the Lambda's remaining time, a timeout
 * per call, and bounded retries with jittered backoff that never sleep past the deadline.
 */

/** Time kept back from the function's remaining time to answer the client. */
const ANSWER_MARGIN_MS = 1_000;

export interface CallBudget {
  /** epoch ms by which every upstream call must be done */
  deadline: number;
}

export function budgetFrom(context: { getRemainingTimeInMillis(): number }): CallBudget {
  return { deadline: clock.now() + context.getRemainingTimeInMillis() - ANSWER_MARGIN_MS };
}

/** A failure worth another attempt; `finalError` is thrown when no attempt is left (or no time). */
export class TransientFailure extends Error {
  constructor(
    readonly finalError: PlatformError,
    /** the platform asked for at least this wait */
    readonly waitAtLeastMs = 0,
  ) {
    super(finalError.message);
  }
}

export interface RetryPolicy {
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 3, baseDelayMs: 300, maxDelayMs: 5_000 };

export async function withRetries<T>(
  budget: CallBudget,
  attempt: (attemptNumber: number) => Promise<T>,
  policy: RetryPolicy = DEFAULT_RETRY_POLICY,
): Promise<T> {
  for (let attemptNumber = 1; ; attemptNumber++) {
    try {
      return await attempt(attemptNumber);
    } catch (error) {
      if (!(error instanceof TransientFailure)) throw error;
      if (attemptNumber >= policy.maxAttempts) throw error.finalError;
      const backoff = clock.jitter(Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attemptNumber - 1)));
      const delay = Math.max(error.waitAtLeastMs, backoff);
      if (clock.now() + delay >= budget.deadline) throw error.finalError;
      log().info('upstream retry', { platform: error.finalError.platform, code: error.finalError.code, attempt: attemptNumber, delayMs: Math.round(delay) });
      await clock.sleep(delay);
    }
  }
}

export interface UpstreamResponse {
  status: number;
  headers: Headers;
  text: string;
}

/**
 * One HTTP exchange with a platform, within the per-call timeout and the deadline. Timeouts become
 * PlatformTimeout, network failures PlatformUnavailable; both are transient when `retrySafe`.
 * `logPath` is what the access log shows: never a URL with a query (it may carry a token).
 */
export async function upstreamFetch(
  platform: Platform,
  url: string,
  init: RequestInit,
  budget: CallBudget,
  options: { retrySafe: boolean; logPath: string },
): Promise<UpstreamResponse> {
  const remaining = budget.deadline - clock.now();
  if (remaining <= 0) throw new PlatformTimeout(platform);
  const timeoutMs = Math.min(config().UPSTREAM_TIMEOUT_MS, remaining);
  const started = performance.now();
  try {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    const text = await response.text();
    log().info('upstream call', {
      platform,
      method: init.method ?? 'GET',
      path: options.logPath,
      status: response.status,
      durationMs: Math.round(performance.now() - started),
    });
    return { status: response.status, headers: response.headers, text };
  } catch (error) {
    const name = (error as Error).name;
    const timedOut = name === 'TimeoutError' || name === 'AbortError';
    log().warn('upstream call failed', { platform, method: init.method ?? 'GET', path: options.logPath, reason: timedOut ? 'timeout' : name, durationMs: Math.round(performance.now() - started) });
    const failure = timedOut ? new PlatformTimeout(platform) : new PlatformUnavailable(platform);
    if (options.retrySafe) throw new TransientFailure(failure);
    throw failure;
  }
}
