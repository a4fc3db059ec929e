import { createHmac } from 'node:crypto';
import type { SandboxRequest, SandboxResponse } from './server.ts';
import type { Row } from './social-data.ts';

/** The social sandbox's Graph plumbing: versions, node fields, tokens and appsecret_proof, error bodies, cursor paging, usage headers. */

export const SUPPORTED_VERSIONS = new Set(['v25.0', 'v26.0']);

export const NODE_FIELDS = {
  AdImage: [
    'id',
    'account_id',
    'created_time',
    'creatives',
    'hash',
    'height',
    'is_associated_creatives_in_adgroups',
    'name',
    'original_height',
    'original_width',
    'owner_business',
    'permalink_url',
    'status',
    'updated_time',
    'url',
    'url_128',
    'width',
  ],
  AdVideo: ['id', 'title', 'length', 'picture', 'format', 'source', 'status', 'created_time', 'updated_time', 'permalink_url', 'embed_html', 'description'],
  IGMedia: [
    'id',
    'caption',
    'media_type',
    'media_url',
    'permalink',
    'timestamp',
    'ig_id',
    'boost_eligibility_info',
    'media_product_type',
    'thumbnail_url',
    'shortcode',
    'like_count',
    'comments_count',
    'is_shared_to_feed',
    'username',
    'owner',
    'legacy_instagram_media_id',
    'alt_text',
  ],
  Campaign: [
    'id',
    'name',
    'account_id',
    'objective',
    'daily_budget',
    'lifetime_budget',
    'status',
    'effective_status',
    'configured_status',
    'issues_info',
    'created_time',
    'updated_time',
    'start_time',
    'stop_time',
    'bid_strategy',
    'buying_type',
    'special_ad_categories',
    'budget_remaining',
    'spend_cap',
  ],
  Page: ['id', 'name', 'access_token', 'instagram_business_account', 'category', 'tasks'],
  AdSet: [
    'id',
    'name',
    'account_id',
    'campaign_id',
    'status',
    'configured_status',
    'effective_status',
    'optimization_goal',
    'billing_event',
    'destination_type',
    'promoted_object',
    'targeting',
    'start_time',
    'end_time',
    'created_time',
    'updated_time',
  ],
  AdCreative: ['id', 'name', 'account_id', 'object_story_spec', 'status', 'created_time'],
  Ad: ['id', 'name', 'account_id', 'adset_id', 'campaign_id', 'creative', 'status', 'configured_status', 'effective_status', 'created_time', 'updated_time'],
  LeadgenForm: [
    'id',
    'name',
    'status',
    'locale',
    'questions',
    'privacy_policy',
    'thank_you_page',
    'context_card',
    'is_optimized_for_quality',
    'question_page_custom_headline',
    'created_time',
  ],
  AdsPixel: ['id', 'name', 'creation_time', 'last_fired_time', 'is_unavailable', 'owner_business', 'is_crm', 'data_use_setting', 'owner_ad_account'],
} as const;
export type NodeType = keyof typeof NODE_FIELDS;
export const DEFAULT_FIELDS: Record<NodeType, string[]> = {
  AdImage: ['id', 'hash'],
  AdVideo: ['id'],
  IGMedia: ['id'],
  Campaign: ['id'],
  Page: ['id', 'name'],
  LeadgenForm: ['id'],
  AdSet: ['id'],
  AdCreative: ['id'],
  Ad: ['id'],
  AdsPixel: ['id'],
};

export const EFFECTIVE_STATUSES = [
  'ACTIVE',
  'PAUSED',
  'DELETED',
  'PENDING_REVIEW',
  'DISAPPROVED',
  'PREAPPROVED',
  'PENDING_BILLING_INFO',
  'CAMPAIGN_PAUSED',
  'ARCHIVED',
  'ADSET_PAUSED',
  'IN_PROCESS',
  'WITH_ISSUES',
];
export const LOCATION_TYPES = [
  'country',
  'country_group',
  'region',
  'city',
  'zip',
  'geo_market',
  'electoral_district',
  'medium_geo_area',
  'subcity',
  'neighborhood',
];

export let traceCounter = 0;
export const trace = () => `AxSANDBOX${(++traceCounter).toString(36).padStart(6, '0')}`;

export function graphError(code: number, message: string, extra: Record<string, unknown> = {}, status = 400): SandboxResponse {
  return {
    status,
    body: {
      error: { message, type: code === 100 && extra.error_subcode === 33 ? 'GraphMethodException' : 'OAuthException', code, ...extra, fbtrace_id: trace() },
    },
  };
}

export const unknownObject = (method: string, id: string) =>
  graphError(
    100,
    `Unsupported ${method.toLowerCase()} request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation. Please read the Graph API documentation at https://developers.facebook.com/docs/graph-api`,
    { error_subcode: 33 },
  );

export interface GraphCall {
  request: SandboxRequest;
  /** query and body parameters together */
  params: Record<string, unknown>;
  token: string;
  publicBase: string;
}

/** The caller's token, checked like the platform does; a response when the call must stop here. */
export function authenticate(request: SandboxRequest, appSecret: string | undefined): GraphCall | SandboxResponse {
  const params: Record<string, unknown> = { ...Object.fromEntries(request.query), ...request.fields };
  const bearer = request.headers.authorization?.match(/^Bearer\s+(.+)$/i)?.[1];
  const token = (params.access_token as string | undefined) ?? bearer;
  if (!token) return graphError(104, 'An access token is required to request this resource.');
  if (token.includes('EXPIRED')) {
    return graphError(
      190,
      'Error validating access token: Session has expired on Tuesday, 20-Oct-26 10:00:00 PDT. The current time is Tuesday, 20-Oct-26 10:14:37 PDT.',
      { error_subcode: 463 },
    );
  }
  if (!/^EAA[A-Za-z0-9]{8,}$/.test(token)) return graphError(190, 'Invalid OAuth access token - Cannot parse access token');
  if (appSecret) {
    const proof = params.appsecret_proof;
    if (proof === undefined) return graphError(100, 'API calls from the server require an appsecret_proof argument', {}, 400);
    if (proof !== createHmac('sha256', appSecret).update(token).digest('hex')) return graphError(100, 'Invalid appsecret_proof provided in the API argument');
  }
  return { request, params, token, publicBase: '' };
}

/** `fields` checked against the node type; unknown names fail the whole call with code 100. */
export function requestedFields(call: GraphCall, node: NodeType): string[] | SandboxResponse {
  const raw = call.params.fields;
  if (raw === undefined || raw === '') return DEFAULT_FIELDS[node];
  const fields = String(raw)
    .split(',')
    .map((field) => field.trim())
    .filter(Boolean);
  const known = NODE_FIELDS[node] as readonly string[];
  for (const field of fields) {
    const name = field.replace(/\{.*$/, '');
    if (!known.includes(name)) return graphError(100, `(#100) Tried accessing nonexisting field (${name}) on node type (${node})`);
  }
  return fields;
}

export function project(row: Row, fields: string[]): Row {
  const out: Row = {};
  for (const field of [...new Set(['id', ...fields])]) {
    if (row[field] !== undefined) out[field] = row[field];
  }
  return out;
}

export const encodeCursor = (index: number) => Buffer.from(`sandbox:${index}`).toString('base64');
export function decodeCursor(cursor: string): number | undefined {
  const match = Buffer.from(cursor, 'base64')
    .toString('utf8')
    .match(/^sandbox:(\d+)$/);
  return match ? Number(match[1]) : undefined;
}

export function parseLimit(call: GraphCall, fallback: number, max: number): number | SandboxResponse {
  if (call.params.limit === undefined) return fallback;
  const limit = Number(call.params.limit);
  if (!Number.isInteger(limit) || limit < 1) return graphError(100, '(#100) Param limit must be a positive integer');
  return Math.min(limit, max);
}

/** Cursor paging as the platform does it, `next`/`previous` URLs carrying the caller's token. */
export function page(call: GraphCall, path: string, rows: Row[], fields: string[], defaultLimit = 25, maxLimit = 100): SandboxResponse {
  const limit = parseLimit(call, defaultLimit, maxLimit);
  if (typeof limit !== 'number') return limit;
  let start = 0;
  if (call.params.after !== undefined) {
    const index = decodeCursor(String(call.params.after));
    if (index === undefined) return graphError(100, '(#100) Invalid cursor');
    start = index + 1;
  } else if (call.params.before !== undefined) {
    const index = decodeCursor(String(call.params.before));
    if (index === undefined) return graphError(100, '(#100) Invalid cursor');
    start = Math.max(0, index - limit);
  }
  const end = call.params.before !== undefined ? Math.min(start + limit, decodeCursor(String(call.params.before)) ?? 0) : start + limit;
  const slice = rows.slice(start, end);
  const body: Row = { data: slice.map((row) => project(row, fields)) };
  if (slice.length > 0) {
    const link = (cursorName: string, cursor: string) => {
      const query = new URLSearchParams();
      query.set('access_token', call.token);
      if (call.params.fields !== undefined) query.set('fields', String(call.params.fields));
      for (const name of ['effective_status', 'time_range', 'time_increment', 'level', 'filtering'])
        if (call.params[name] !== undefined) query.set(name, String(call.params[name]));
      query.set('limit', String(limit));
      query.set(cursorName, cursor);
      return `${call.publicBase}/${path}?${query}`;
    };
    const paging: Row = { cursors: { before: encodeCursor(start), after: encodeCursor(start + slice.length - 1) } };
    if (start > 0) paging.previous = link('before', encodeCursor(start));
    if (start + slice.length < rows.length) paging.next = link('after', encodeCursor(start + slice.length - 1));
    body.paging = paging;
  }
  return { status: 200, body };
}

export const usageHeaders = (accountId?: string): Record<string, string> => ({
  'x-app-usage': JSON.stringify({ call_count: 2, total_cputime: 1, total_time: 1 }),
  ...(accountId
    ? {
        'x-business-use-case-usage': JSON.stringify({
          [accountId]: [
            {
              type: 'ads_management',
              call_count: 1,
              total_cputime: 1,
              total_time: 1,
              estimated_time_to_regain_access: 0,
              ads_api_access_tier: 'standard_access',
            },
          ],
        }),
        'x-ad-account-usage': JSON.stringify({ acc_id_util_pct: 0.5, reset_time_duration: 0, ads_api_access_tier: 'standard_access' }),
      }
    : {}),
});

export function withHeaders(response: SandboxResponse, headers: Record<string, string>): SandboxResponse {
  return { ...response, headers: { ...headers, ...response.headers } };
}

export function parseJsonArray(value: unknown, name: string): string[] | SandboxResponse {
  if (Array.isArray(value)) return value.map(String);
  try {
    const parsed: unknown = JSON.parse(String(value));
    if (Array.isArray(parsed)) return parsed.map(String);
  } catch {
    // falls through to the error
  }
  return graphError(100, `(#100) param ${name} must be an array.`);
}

export const fold = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();

/** A route's answer from the part of the sandbox's state it uses (the hub gives it the whole state). */
export type GraphHandler<State> = (call: GraphCall, state: State, params: Record<string, string>) => SandboxResponse;

export function parseParam(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return undefined;
  }
}
