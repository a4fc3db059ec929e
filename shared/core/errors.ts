/**
 * Every failure the service answers with, one class per row of the error table (error-table.ts).
 * The envelope middleware turns them into responses; nothing else builds an error body.
 */
import type { ErrorCode } from './error-table.ts';

export { ERROR_CODES, type ErrorCode } from './error-table.ts';

export interface ProblemDetail {
  path: string;
  message: string;
  /** what the problem is, where one code names it (a launch's BUDGET_TOO_LOW, MEDIA_NOT_FOUND, INVALID_AMOUNT) */
  code?: string;
  /** BUDGET_TOO_LOW: the smallest amount the account takes */
  minimum?: { amount: string; currency: string };
}

/** The platforms, named once: shared/platforms/registry.ts holds an adapter for each. */
export const PLATFORMS = ['social', 'searchads', 'professional'] as const;
export type Platform = (typeof PLATFORMS)[number];

export class ServiceError extends Error {
  /** HTTP status of the response */
  readonly status: number;
  readonly code: ErrorCode;
  /** extra fields merged into `results` (never secrets) */
  readonly extra: Record<string, unknown>;
  readonly headers: Record<string, string>;

  constructor(
    status: number,
    code: ErrorCode,
    message: string,
    options: { cause?: unknown; extra?: Record<string, unknown>; headers?: Record<string, string> } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = new.target.name;
    this.status = status;
    this.code = code;
    this.extra = options.extra ?? {};
    this.headers = options.headers ?? {};
  }
}

export class InvalidRequest extends ServiceError {
  constructor(message: string, details: ProblemDetail[] = []) {
    super(400, 'INVALID_REQUEST', message, { extra: details.length > 0 ? { details } : {} });
  }
}

export class Unauthorized extends ServiceError {
  constructor() {
    super(401, 'UNAUTHORIZED', 'A valid API key is required in the x-api-key header.');
  }
}

export class UserNotFound extends ServiceError {
  constructor() {
    super(404, 'USER_NOT_FOUND', 'No user with this userId exists for this API key.');
  }
}

export class UserAlreadyExists extends ServiceError {
  constructor() {
    super(409, 'USER_ALREADY_EXISTS', 'A user with this userId already exists; choose another userId.');
  }
}

export class PlatformNotConnected extends ServiceError {
  constructor(platform: Platform, message = `This user has no ${platform} connection; connect it with a connect link (/auth/create_link) or create_user.`) {
    super(409, 'PLATFORM_NOT_CONNECTED', message);
  }
}

export class NotFound extends ServiceError {
  constructor(message: string) {
    super(404, 'NOT_FOUND', message);
  }
}

/** A conversion stage names a destination the user's connection cannot send to (docs/conversions.md). */
export class DestinationNotFound extends ServiceError {
  constructor(platform: Platform, destinationId: string) {
    super(
      400,
      'DESTINATION_NOT_FOUND',
      `The user's ${platform} connection cannot send conversions to ${destinationId}; /conversions/list_destinations lists the destinations it can.`,
      { extra: { platform, destinationId } },
    );
  }
}

/** A reported outcome names a lead the user was never delivered, or one erased (docs/conversions.md). */
export class LeadNotFound extends ServiceError {
  constructor(leadId: string) {
    super(404, 'LEAD_NOT_FOUND', `No lead ${leadId} was delivered to this user (or it was erased).`);
  }
}

/** A report the platform cannot give at that level or with that breakdown (docs/reports.md): what it offers is named. */
export class UnsupportedReport extends ServiceError {
  constructor(code: 'UNSUPPORTED_LEVEL' | 'UNSUPPORTED_BREAKDOWN', message: string, supported: readonly string[]) {
    super(400, code, message, { extra: { supported: [...supported] } });
  }
}

/** A reported outcome's stage has no destination on the lead's platform (docs/conversions.md). */
export class StageNotMapped extends ServiceError {
  /** without a platform: the stage maps to no destination on any platform (or is not in the funnel) */
  constructor(stage: string, platform?: Platform) {
    super(
      400,
      'STAGE_NOT_MAPPED',
      platform
        ? `The stage ${stage} is not mapped to a ${platform} destination; map it with /conversions/set_stages.`
        : `The stage ${stage} is not a stage of the user’s funnel mapped to any destination; map it with /conversions/set_stages.`,
      platform ? { extra: { platform } } : {},
    );
  }
}

export class MethodNotAllowed extends ServiceError {
  constructor(allowed: string[]) {
    super(405, 'METHOD_NOT_ALLOWED', `This path only accepts ${allowed.join(', ')}.`, {
      headers: { allow: allowed.join(', ') },
    });
  }
}

export class IdempotencyConflict extends ServiceError {
  constructor(message: string) {
    super(409, 'IDEMPOTENCY_CONFLICT', message);
  }
}

/** A user already has the most rules one user may have. */
export class RuleLimitReached extends ServiceError {
  constructor(limit: number) {
    super(409, 'RULE_LIMIT_REACHED', `A user may have at most ${limit} rules; delete one (delete_rule) before creating another.`, { extra: { limit } });
  }
}

/** A record kept changing under concurrent requests for longer than our retries: nothing of this request was written. */
export class Conflict extends ServiceError {
  constructor(message: string) {
    super(409, 'CONFLICT', message);
  }
}

/** A second launch of one name in one ad account while the first still runs (docs/decisions.md, "Launch identity"). */
export class LaunchInProgress extends ServiceError {
  constructor(name: string, runningJobId: string | undefined) {
    super(
      409,
      'LAUNCH_IN_PROGRESS',
      `A launch of a campaign named "${name}" in this ad account is still running${runningJobId ? ` (job ${runningJobId})` : ''}; nothing was started. Wait for it to end, or use another name.`,
      { extra: runningJobId ? { runningJobId } : {} },
    );
  }
}

/** Our own limit on an operation of this tenant (not a platform's): retry after `Retry-After` seconds. */
export class RateLimited extends ServiceError {
  constructor(message: string, retryAfterSeconds: number) {
    const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
    super(429, 'RATE_LIMITED', `${message} Retry after ${seconds} seconds.`, { headers: { 'retry-after': String(seconds) } });
  }
}

export class PayloadTooLarge extends ServiceError {
  constructor(message: string) {
    super(413, 'PAYLOAD_TOO_LARGE', message);
  }
}

/** A media file whose first bytes are none of the kinds an ad account takes: refused before anything is sent. */
export class UnsupportedMedia extends ServiceError {
  constructor(message: string) {
    super(400, 'UNSUPPORTED_MEDIA', message);
  }
}

/** A video the platform would not take or could not process: the end of an ad_media job, with the platform's reason. */
export class MediaProcessingFailed extends ServiceError {
  constructor(message: string) {
    super(422, 'MEDIA_PROCESSING_FAILED', message);
  }
}

export class UnsupportedMediaType extends ServiceError {
  constructor(expected: string) {
    super(415, 'UNSUPPORTED_MEDIA_TYPE', `The request body must be sent as ${expected}.`);
  }
}

export class InternalError extends ServiceError {
  constructor(cause?: unknown) {
    super(500, 'INTERNAL', 'An internal error occurred; it has been logged. Please retry later.', { cause });
  }
}

/** Base of every failure that comes from an upstream ad platform. */
export class PlatformError extends ServiceError {
  readonly platform: Platform;
  constructor(
    platform: Platform,
    status: number,
    code: ErrorCode,
    message: string,
    options: { cause?: unknown; extra?: Record<string, unknown>; headers?: Record<string, string> } = {},
  ) {
    super(status, code, message, options);
    this.platform = platform;
  }
}

/** The platform refused the operation (policy, bad id, limits). Answered 200 with results.success false. */
export class PlatformRejected extends PlatformError {
  constructor(platform: Platform, message: string, extra: Record<string, unknown> = {}, cause?: unknown) {
    super(platform, 200, 'PLATFORM_REJECTED', message, { extra: { platform, ...extra }, cause });
  }
}

/**
 * A search-ads account with campaigns that lack the EU political-advertising declaration refuses every
 * campaign write (docs/decisions.md, "The EU political-advertising declaration"): answered in band,
 * naming the undeclared campaigns, which declare_eu_political_advertising declares.
 */
export class EuDeclarationRequired extends PlatformError {
  readonly campaignIds: string[];
  /** the Google Ads account (customer id) that is blocked: never shown, the webhook's once-a-day key */
  readonly customerId: string;
  constructor(customerId: string, campaignIds: string[], cause?: unknown) {
    super(
      'searchads',
      200,
      'EU_POLITICAL_DECLARATION_REQUIRED',
      `The search-ads account refuses every campaign change until each of its campaigns declares whether it contains EU political advertising; ${campaignIds.length === 0 ? 'the undeclared campaigns could not be listed' : `undeclared: ${campaignIds.join(', ')}`}. Declare them with /searchads/declare_eu_political_advertising, then retry.`,
      { extra: { platform: 'searchads', campaignIds }, cause },
    );
    this.campaignIds = campaignIds;
    this.customerId = customerId;
  }
}

/** The user's platform token expired or was revoked. Answered 200 with results.success false. */
export class PlatformAuthExpired extends PlatformError {
  constructor(platform: Platform, message: string, cause?: unknown) {
    super(platform, 200, 'PLATFORM_AUTH_EXPIRED', message, { extra: { platform }, cause });
  }
}

export class PlatformRateLimited extends PlatformError {
  readonly retryAfterSeconds: number;
  /** `message`: when the limit is one of the platform's that we keep before the call (nothing was sent) */
  constructor(platform: Platform, retryAfterSeconds: number, cause?: unknown, message?: string) {
    const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
    super(platform, 429, 'PLATFORM_RATE_LIMITED', message ?? `The ${platform} platform is throttling requests; retry after ${seconds} seconds.`, {
      // the wait in the answer too, beside the Retry-After header
      extra: { platform, retryAfter: seconds },
      headers: { 'retry-after': String(seconds) },
      cause,
    });
    this.retryAfterSeconds = seconds;
  }
}

/**
 * A tenant spent its share of the search-ads project's daily operations (docs/configuration.md,
 * "Search-ads operations"): nothing was sent; `retryAfter` is when Google's next day begins.
 */
export class QuotaExceeded extends PlatformRateLimited {
  override readonly code: ErrorCode = 'QUOTA_EXCEEDED';
  constructor(platform: Platform, retryAfterSeconds: number, share: number) {
    super(
      platform,
      retryAfterSeconds,
      undefined,
      `This tenant used its share (${share}) of the ${platform} platform's operations for today (Google's day, Pacific time); nothing was sent. Retry after ${Math.max(1, Math.ceil(retryAfterSeconds))} seconds, when Google's next day begins.`,
    );
    Object.assign(this.extra, { share });
  }
}

/**
 * The platform refuses our app itself, not the user: its access level or app review is not approved
 * for production (docs/going-live.md). An operator's matter, answered in band and alarmed on.
 */
export class PlatformAccessNotApproved extends PlatformError {
  constructor(platform: Platform, message: string, cause?: unknown) {
    super(platform, 200, 'PLATFORM_ACCESS_NOT_APPROVED', message, { extra: { platform }, cause });
  }
}

export class PlatformUnavailable extends PlatformError {
  constructor(platform: Platform, cause?: unknown) {
    super(platform, 502, 'PLATFORM_UNAVAILABLE', `The ${platform} platform is unavailable; retry later.`, {
      extra: { platform },
      cause,
    });
  }
}

export class PlatformTimeout extends PlatformError {
  constructor(platform: Platform, cause?: unknown) {
    super(platform, 504, 'PLATFORM_TIMEOUT', `The ${platform} platform did not answer in time; retry later.`, {
      extra: { platform },
      cause,
    });
  }
}

/** The refusals of campaign control that depend on the campaign's state upstream (docs/errors.md). */
export type CampaignRefusalCode =
  | 'CAMPAIGN_NOT_FOUND'
  | 'CAMPAIGN_REMOVED'
  | 'BUDGET_NOT_ON_CAMPAIGN'
  | 'SHARED_BUDGET'
  | 'BUDGET_TOO_LOW'
  | 'INVALID_TRANSITION';

/**
 * A campaign change refused from what the read of the campaign showed, before anything was written:
 * answered 200 with results.success false and the code (the platform was not asked to write).
 */
export class CampaignRefused extends ServiceError {
  constructor(code: CampaignRefusalCode, message: string, extra: Record<string, unknown> = {}) {
    super(200, code, message, { extra });
  }
}

/** A decision the proposal's state refuses: it expired, was decided otherwise, or no longer holds (`results.proposal` shows it). */
export class ProposalRefused extends ServiceError {
  constructor(code: ErrorCode, message: string, proposal: object) {
    super(200, code, message, { extra: { proposal } });
  }
}

/** An undo asked after the week a run may be undone in. */
export class UndoWindowPassed extends ServiceError {
  constructor(message: string) {
    super(200, 'UNDO_WINDOW_PASSED', message);
  }
}

/** The platform refused a campaign write for a reason with its own code (a budget below its minimum, a removed campaign). */
export class PlatformCampaignRefused extends PlatformError {
  constructor(platform: Platform, code: CampaignRefusalCode, message: string, extra: Record<string, unknown> = {}, cause?: unknown) {
    super(platform, 200, code, message, { extra: { platform, ...extra }, cause });
  }
}

/** The user's grant lacks a permission the operation needs: a new connect link for the user asks for it. */
export class ScopeMissing extends PlatformError {
  constructor(platform: Platform, scope: string) {
    super(
      platform,
      200,
      'SCOPE_MISSING',
      `The user’s ${platform} connection was not granted ${scope}, which this operation needs; a new connect link for the user (/auth/create_link) asks for it (get_profile lists the scopes a connection has).`,
      { extra: { platform, scope } },
    );
  }
}

/** The codes a launch job ends with beside the platform-wide ones (docs/errors.md, "Launch errors"). */
export type LaunchErrorCode =
  | 'BUDGET_TOO_LOW'
  | 'INVALID_OPTIMIZATION_FOR_OBJECTIVE'
  | 'DECLARATION_REQUIRED'
  | 'CREATIVE_OPTION_REQUIRED'
  | 'MEDIA_NOT_READY'
  | 'MEDIA_PROCESSING_FAILED'
  | 'ACCOUNT_NOT_ELIGIBLE'
  | 'PAGE_NOT_AUTHORIZED'
  | 'PLATFORM_REJECTED'
  | 'UNKNOWN_OUTCOME';

/** What the platform said of a refusal: its code and subcode, and the title and message it shows its users. */
export interface PlatformDetail {
  code: number | string;
  subcode?: number;
  userTitle?: string;
  userMessage?: string;
  traceId?: string;
}

/**
 * A launch step the platform refused in a way retrying cannot mend, or whose outcome could not be
 * told: the job ends `failed` with this code (after undoing what it made).
 */
export class LaunchRefused extends PlatformError {
  constructor(
    platform: Platform,
    code: LaunchErrorCode,
    message: string,
    detail?: PlatformDetail,
    cause?: unknown,
    /** BUDGET_TOO_LOW: the smallest daily budget, when the platform names it */
    minimum?: { amount: string; currency: string },
  ) {
    super(platform, 200, code, message, { extra: { platform, ...(detail ? { platformDetail: detail } : {}), ...(minimum ? { minimum } : {}) }, cause });
  }
}
