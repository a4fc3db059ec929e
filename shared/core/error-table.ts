/**
 * The error table, declared once (docs/errors.md): every situation the service answers with an error
 * code, its HTTP status and envelope flags, and its codes. The error codes, the README's table, the
 * OpenAPI document's error rows and docs/errors.md's code list are all made from it (`npm run docs`
 * writes the README's and errors.md's; the OpenAPI document is built from it at run time); a unit test
 * fails when a written table drifts, and the stack tests fail on any answered code it lacks.
 *
 * `http: null`: a code that is only ever a job's error (get_job, a job webhook), never an HTTP answer.
 */
export interface ErrorRow {
  situation: string;
  http: number | null;
  /** the envelope's `success` and `results.success` (null for a job's error) */
  success: boolean | null;
  resultsSuccess: boolean | null;
  codes: readonly string[];
  /** the sentence the OpenAPI document gives its status's row, when it is not the situation */
  summary?: string;
}

export const ERROR_TABLE = [
  {
    situation: 'platform refused the operation (policy, bad id, limits, user token expired)',
    http: 200,
    success: true,
    resultsSuccess: false,
    codes: ['PLATFORM_REJECTED', 'PLATFORM_AUTH_EXPIRED'],
  },
  {
    situation:
      "the platform refuses the service's own app, not the user: its access level or app review is not approved for production (an operator's matter; alarmed on, see docs/going-live.md)",
    http: 200,
    success: true,
    resultsSuccess: false,
    codes: ['PLATFORM_ACCESS_NOT_APPROVED'],
  },
  {
    situation:
      'a connection without a scope the operation needs: the professional reporting or conversions scope, the search-ads Data Manager scope (`results.scope` names it; a new connect link adds it)',
    http: 200,
    success: true,
    resultsSuccess: false,
    codes: ['SCOPE_MISSING'],
  },
  {
    situation: "a campaign change the campaign's state refuses (see [docs/errors.md](docs/errors.md))",
    http: 200,
    success: true,
    resultsSuccess: false,
    codes: ['CAMPAIGN_NOT_FOUND', 'CAMPAIGN_REMOVED', 'BUDGET_NOT_ON_CAMPAIGN', 'SHARED_BUDGET', 'BUDGET_TOO_LOW', 'INVALID_TRANSITION'],
  },
  {
    situation:
      "a proposal's decision its state refuses: it expired, was decided otherwise, or no longer holds (`results.proposal` shows it; see [docs/rules.md](docs/rules.md))",
    http: 200,
    success: true,
    resultsSuccess: false,
    codes: ['STALE_PROPOSAL', 'PROPOSAL_EXPIRED', 'PROPOSAL_DECIDED'],
  },
  {
    situation: 'an undo asked more than 7 days after its run',
    http: 200,
    success: true,
    resultsSuccess: false,
    codes: ['UNDO_WINDOW_PASSED'],
  },
  {
    situation:
      'a search-ads write in an account with campaigns lacking the EU political-advertising declaration (`results.campaignIds` names them; `declare_eu_political_advertising` lifts it)',
    http: 200,
    success: true,
    resultsSuccess: false,
    codes: ['EU_POLITICAL_DECLARATION_REQUIRED'],
  },
  {
    situation: 'malformed JSON, schema violation (`details`: one `{path, message}` per problem)',
    http: 400,
    success: false,
    resultsSuccess: false,
    codes: ['INVALID_REQUEST'],
  },
  {
    situation: 'a media file that is no JPEG, PNG, GIF, MP4 or QuickTime file by its first bytes (nothing sent upstream)',
    http: 400,
    success: false,
    resultsSuccess: false,
    codes: ['UNSUPPORTED_MEDIA'],
  },
  {
    situation:
      'a video job that ended without the video: the platform refused it or could not process it (its reason in the message; in `get_job` and the `ad_media.failed` webhook, never an HTTP answer)',
    http: null,
    success: null,
    resultsSuccess: null,
    codes: ['MEDIA_PROCESSING_FAILED'],
  },
  {
    situation: 'a launch from an ad account that cannot launch (disabled, unpaid, held, or the user may not advertise on it); nothing made',
    http: 200,
    success: true,
    resultsSuccess: false,
    codes: ['ACCOUNT_NOT_ELIGIBLE'],
  },
  {
    situation:
      "a launch job that ended without its campaign (in `get_job` and the `campaign_launch.failed` webhook, with the platform's code, subcode, title and message, `rolledBack` and `orphans`; never an HTTP answer)",
    http: null,
    success: null,
    resultsSuccess: null,
    codes: [
      'BUDGET_TOO_LOW',
      'INVALID_OPTIMIZATION_FOR_OBJECTIVE',
      'DECLARATION_REQUIRED',
      'CREATIVE_OPTION_REQUIRED',
      'MEDIA_NOT_READY',
      'MEDIA_PROCESSING_FAILED',
      'ACCOUNT_NOT_ELIGIBLE',
      'PAGE_NOT_AUTHORIZED',
      'SCOPE_MISSING',
      'PLATFORM_REJECTED',
      'UNKNOWN_OUTCOME',
    ],
  },
  {
    situation:
      'a conversion stage mapped to a destination the connection cannot send to (`results.platform` and `results.destinationId` name it; `/conversions/list_destinations` lists those it can)',
    http: 400,
    success: false,
    resultsSuccess: false,
    codes: ['DESTINATION_NOT_FOUND'],
  },
  {
    situation: 'a reported outcome for a stage the user’s funnel does not map on the lead’s platform (`/conversions/set_stages` maps it)',
    http: 400,
    success: false,
    resultsSuccess: false,
    codes: ['STAGE_NOT_MAPPED'],
  },
  {
    situation:
      'a report asked at a level, or broken down by a value, the platform does not offer there (`results.supported` lists what it does); no platform call is made',
    http: 400,
    success: false,
    resultsSuccess: false,
    codes: ['UNSUPPORTED_LEVEL', 'UNSUPPORTED_BREAKDOWN'],
  },
  { situation: 'missing or unknown `x-api-key`', http: 401, success: false, resultsSuccess: false, codes: ['UNAUTHORIZED'] },
  {
    situation: "`userId` unknown to this API key's tenant (same answer as a user of another tenant)",
    http: 404,
    success: false,
    resultsSuccess: false,
    codes: ['USER_NOT_FOUND'],
  },
  {
    situation: 'a lead the service never delivered to this user, or one erased (same answer as another tenant’s lead)',
    http: 404,
    success: false,
    resultsSuccess: false,
    codes: ['LEAD_NOT_FOUND'],
  },
  { situation: 'unknown path', http: 404, success: false, resultsSuccess: false, codes: ['NOT_FOUND'] },
  { situation: 'a known path with another method', http: 405, success: false, resultsSuccess: false, codes: ['METHOD_NOT_ALLOWED'] },
  { situation: 'user has no connection for this platform', http: 409, success: false, resultsSuccess: false, codes: ['PLATFORM_NOT_CONNECTED'] },
  { situation: '`create_user` with a `userId` that exists', http: 409, success: false, resultsSuccess: false, codes: ['USER_ALREADY_EXISTS'] },
  { situation: "a user's 101st rule", http: 409, success: false, resultsSuccess: false, codes: ['RULE_LIMIT_REACHED'] },
  {
    situation: 'a record asked for is not in our store (history of a campaign never optimized)',
    http: 404,
    success: false,
    resultsSuccess: false,
    codes: ['NOT_FOUND'],
  },
  {
    situation: '`Idempotency-Key` reused with a different body, or still in progress',
    http: 409,
    success: false,
    resultsSuccess: false,
    codes: ['IDEMPOTENCY_CONFLICT'],
  },
  {
    situation: 'a record kept changing under concurrent requests longer than our retries (nothing of this request written: retry)',
    http: 409,
    success: false,
    resultsSuccess: false,
    codes: ['CONFLICT'],
  },
  {
    situation: 'a launch (`create_campaign`) of a name that another launch in the same ad account is still running (`runningJobId` names it); nothing started',
    http: 409,
    success: false,
    resultsSuccess: false,
    codes: ['LAUNCH_IN_PROGRESS'],
  },
  {
    situation: 'body or file too large (a function takes 6 MB of JSON, or a 4 MB file in a multipart form)',
    http: 413,
    success: false,
    resultsSuccess: false,
    codes: ['PAYLOAD_TOO_LARGE'],
    summary:
      'The body or file is larger than a function accepts (a JSON body of 6 MB; a multipart upload with a file of 4 MB: send a larger file with /uploads/create_upload).',
  },
  { situation: 'wrong content type', http: 415, success: false, resultsSuccess: false, codes: ['UNSUPPORTED_MEDIA_TYPE'] },
  {
    situation: 'platform still throttling after bounded retries (`Retry-After` set)',
    http: 429,
    success: false,
    resultsSuccess: false,
    codes: ['PLATFORM_RATE_LIMITED'],
  },
  {
    situation:
      "the tenant used its share of the search-ads project's daily operations (`results.retryAfter`: seconds until Google's next day; `Retry-After` set); nothing was sent",
    http: 429,
    success: false,
    resultsSuccess: false,
    codes: ['QUOTA_EXCEEDED'],
  },
  {
    situation: 'one of our own per-tenant limits used up (`send_test_webhook`: 10 a minute; `Retry-After` set)',
    http: 429,
    success: false,
    resultsSuccess: false,
    codes: ['RATE_LIMITED'],
  },
  { situation: 'platform unreachable or 5xx after bounded retries', http: 502, success: false, resultsSuccess: false, codes: ['PLATFORM_UNAVAILABLE'] },
  { situation: 'platform timed out', http: 504, success: false, resultsSuccess: false, codes: ['PLATFORM_TIMEOUT'] },
  { situation: 'anything else (no stack trace, no secret)', http: 500, success: false, resultsSuccess: false, codes: ['INTERNAL'] },
] as const satisfies readonly ErrorRow[];

export type ErrorCode = (typeof ERROR_TABLE)[number]['codes'][number];

/** Whether a code is answered in band (200, results.success false): a refusal, not a failure to retry. */
export const isInBandCode = (code: string | undefined): code is ErrorCode =>
  ERROR_TABLE.some((row) => row.http === 200 && (row.codes as readonly string[]).includes(code ?? ''));

/** Every code, once, in the table's order. */
export const ERROR_CODES: readonly ErrorCode[] = [...new Set(ERROR_TABLE.flatMap((row): readonly ErrorCode[] => row.codes))];

/** The README's table (and docs/errors.md's), as markdown. */
export function errorTableMarkdown(): string {
  const cell = (value: boolean | number | null) => (value === null ? '–' : String(value));
  return [
    '| situation | HTTP | success | results.success | results.code |',
    '| --- | --- | --- | --- | --- |',
    '| operation done | 200 | true | true | – |',
    ...ERROR_TABLE.map((row) => `| ${row.situation} | ${cell(row.http)} | ${cell(row.success)} | ${cell(row.resultsSuccess)} | ${row.codes.join(', ')} |`),
  ].join('\n');
}

/** The error statuses of the OpenAPI document: each HTTP status of 400 and above, its codes, and what it means. */
export function errorStatuses(): Array<{ status: string; codes: ErrorCode[]; description: string }> {
  const byStatus = new Map<number, { codes: Set<ErrorCode>; situations: string[] }>();
  for (const row of ERROR_TABLE) {
    if (row.http === null || row.http < 400) continue;
    const entry = byStatus.get(row.http) ?? { codes: new Set<ErrorCode>(), situations: [] };
    for (const code of row.codes) entry.codes.add(code);
    entry.situations.push('summary' in row ? row.summary : row.situation);
    byStatus.set(row.http, entry);
  }
  return [...byStatus.entries()]
    .sort(([a], [b]) => a - b)
    .map(([status, { codes, situations }]) => ({ status: String(status), codes: [...codes], description: sentence(situations.join('; ')) }));
}

const sentence = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}${text.endsWith('.') ? '' : '.'}`;
