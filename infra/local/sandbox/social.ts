import { createHash, createHmac } from 'node:crypto';
import { appendFileSync, existsSync, readFileSync, truncateSync } from 'node:fs';
import { clock } from '../../../shared/core/clock.ts';
import { SANDBOX_APP_CREDENTIALS } from './demo-data.ts';
import {
  accessToken,
  appScopedIdOf,
  consentAnswer,
  consentDialog,
  GRANTED_PERMISSIONS,
  me,
  myAdAccounts,
  myPages,
  myPermissions,
  newSocialConnectState,
  revokePermissions,
  type SocialConnectState,
} from './social-connect.ts';
import {
  accountOf,
  adAccount,
  type CampaignWorld,
  createCampaign,
  dailyInsight,
  daysBetween,
  deleteCampaign,
  findCampaign,
  loadCampaignWorld,
  saveCampaignWorld,
  updateCampaign,
} from './social-campaigns.ts';
import { startSandbox, type Sandbox, type SandboxRequest, type SandboxResponse, type SandboxRoute } from './server.ts';
import {
  DEMO_AD_ACCOUNT,
  DEMO_PAGE_ID,
  DEMO_PHOTO_ACCOUNT,
  seedCampaigns,
  seedImages,
  seedLocations,
  seedPhotoMedia,
  seedVideos,
  type Row,
} from './social-data.ts';

/**
 * The social platform sandbox: a Graph-style API as docs/platforms.md, "Social" describes it. It checks
 * tokens, appsecret_proof, `fields` and parameters as the platform does, answers with the
 * platform's error bodies, pages with cursors and with `next` URLs that embed the caller's token,
 * and keeps what is created (lead forms).
 *
 * Tokens: any `EAA…` token is a valid user token with access to the demo ad account and page; one
 * containing EXPIRED is expired (190/463); anything else cannot be parsed (190).
 */
const SUPPORTED_VERSIONS = new Set(['v25.0', 'v26.0']);

const NODE_FIELDS = {
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
} as const;
type NodeType = keyof typeof NODE_FIELDS;
const DEFAULT_FIELDS: Record<NodeType, string[]> = {
  AdImage: ['id', 'hash'],
  AdVideo: ['id'],
  IGMedia: ['id'],
  Campaign: ['id'],
  Page: ['id', 'name'],
  LeadgenForm: ['id'],
};

const EFFECTIVE_STATUSES = [
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
const LOCATION_TYPES = ['country', 'country_group', 'region', 'city', 'zip', 'geo_market', 'electoral_district', 'medium_geo_area', 'subcity', 'neighborhood'];
const LEADGEN_QUESTION_TYPES = new Set([
  'CUSTOM',
  'CITY',
  'COMPANY_NAME',
  'COUNTRY',
  'DOB',
  'EMAIL',
  'GENDER',
  'FIRST_NAME',
  'FULL_NAME',
  'JOB_TITLE',
  'LAST_NAME',
  'MARITIAL_STATUS',
  'WHATSAPP_NUMBER',
  'EDUCATION_LEVEL',
  'WEBSITE',
  'PHONE',
  'PHONE_OTP',
  'POST_CODE',
  'PROVINCE',
  'RELATIONSHIP_STATUS',
  'STATE',
  'STREET_ADDRESS',
  'ZIP',
  'WORK_EMAIL',
  'MILITARY_STATUS',
  'WORK_PHONE_NUMBER',
  'SLIDER',
  'STORE_LOOKUP',
  'STORE_LOOKUP_WITH_TYPEAHEAD',
  'DATE_TIME',
  'ID_CPF',
  'ID_AR_DNI',
  'ID_CL_RUT',
  'ID_CO_CC',
  'ID_EC_CI',
  'ID_PE_DNI',
  'ID_MX_RFC',
  'JOIN_CODE',
  'USER_PROVIDED_PHONE_NUMBER',
  'FACEBOOK_LEAD_ID',
  'EMAIL_ALIAS',
  'MESSENGER',
  'VIN',
  'LICENSE_PLATE',
  'THREAD_LINK',
  'ADDRESS_LINE_TWO',
]);
const LEADGEN_LOCALES = new Set([
  'AR_AR',
  'CS_CZ',
  'DA_DK',
  'DE_DE',
  'EL_GR',
  'EN_GB',
  'EN_US',
  'ES_ES',
  'ES_LA',
  'FI_FI',
  'FR_FR',
  'HE_IL',
  'HI_IN',
  'HU_HU',
  'ID_ID',
  'IT_IT',
  'JA_JP',
  'KO_KR',
  'NB_NO',
  'NL_NL',
  'PL_PL',
  'PT_BR',
  'PT_PT',
  'RO_RO',
  'RU_RU',
  'SV_SE',
  'TH_TH',
  'TR_TR',
  'VI_VN',
  'ZH_CN',
  'ZH_HK',
  'ZH_TW',
]);
const BUTTON_TYPES = new Set([
  'VIEW_WEBSITE',
  'CALL_BUSINESS',
  'MESSAGE_BUSINESS',
  'DOWNLOAD',
  'SCHEDULE_APPOINTMENT',
  'VIEW_ON_FACEBOOK',
  'PROMO_CODE',
  'NONE',
  'WHATSAPP',
  'P2B_MESSENGER',
  'BOOK_ON_WEBSITE',
]);

let traceCounter = 0;
const trace = () => `AxSANDBOX${(++traceCounter).toString(36).padStart(6, '0')}`;

export function graphError(code: number, message: string, extra: Record<string, unknown> = {}, status = 400): SandboxResponse {
  return {
    status,
    body: {
      error: { message, type: code === 100 && extra.error_subcode === 33 ? 'GraphMethodException' : 'OAuthException', code, ...extra, fbtrace_id: trace() },
    },
  };
}

const unknownObject = (method: string, id: string) =>
  graphError(
    100,
    `Unsupported ${method.toLowerCase()} request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation. Please read the Graph API documentation at https://developers.facebook.com/docs/graph-api`,
    { error_subcode: 33 },
  );

const AUDIENCE_KEYS = new Set([
  'EXTERN_ID',
  'EMAIL',
  'PHONE',
  'GEN',
  'DOBY',
  'DOBM',
  'DOBD',
  'LN',
  'FN',
  'FI',
  'CT',
  'ST',
  'ZIP',
  'MADID',
  'COUNTRY',
  'EMAIL_SHA256',
  'PHONE_SHA256',
  'MOBILE_ADVERTISER_ID',
]);
const UNHASHED_KEYS = new Set(['EXTERN_ID', 'MADID', 'MOBILE_ADVERTISER_ID']);
const MAX_AUDIENCE_ROWS = 10_000;

interface UploadSessionState {
  received: number;
  invalid: number;
  lastBatchSeen: boolean;
  replace: boolean;
}

/** One batch the audience received: its flags, its rows, and the valid members it brought. */
export interface AudienceBatch {
  edge: string;
  method: string;
  session: Record<string, unknown>;
  rows: number;
  /** valid rows (members added, or removed for DELETE) */
  members: number;
  /** an order-free fingerprint of those members (memberDigest): a batch sent again has the same one */
  digest: string;
  /** the same session and batch_seq arrived before: its members were not counted again */
  repeated?: boolean;
}

/**
 * An audience as the sandbox keeps it: bounded whatever the list's size. It counts its members rather
 * than holding them (the platform matches and dedupes people; the sandbox counts valid rows, a batch
 * sent again in its session once) and keeps only the newest few for a look.
 */
export interface CustomAudience {
  id: string;
  accountId: string;
  name: string;
  subtype: string;
  memberCount: number;
  /** the newest members, at most RECENT_MEMBERS */
  recentMembers: string[];
  sessions: Map<string, UploadSessionState>;
  /** every batch the audience received (a few hundred bytes each, whatever its rows) */
  batches: AudienceBatch[];
}

const RECENT_MEMBERS = 10;
const DIGEST_MODULUS = 1n << 64n;

/** The digest of the members of every batch counted (a batch sent again is left out): the audience's members as they arrived. */
export function countedDigest(audience: Pick<CustomAudience, 'batches'>): string {
  return audience.batches
    .filter((batch) => !batch.repeated && batch.method !== 'DELETE')
    .reduce((sum, batch) => (sum + BigInt(`0x${batch.digest}`)) % DIGEST_MODULUS, 0n)
    .toString(16);
}

/** Sum, modulo 2^64, of the first 64 bits of each member's SHA-256: the same members give the same digest in any order. */
export function memberDigest(members: Iterable<string>, start = 0n): string {
  let sum = start;
  for (const member of members) sum = (sum + BigInt(`0x${createHash('sha256').update(member).digest('hex').slice(0, 16)}`)) % DIGEST_MODULUS;
  return sum.toString(16);
}

export interface SocialState {
  images: Map<string, Row[]>;
  videos: Map<string, Row[]>;
  campaigns: Map<string, Row[]>;
  pages: Map<string, { name: string; photoAccountId?: string }>;
  photoMedia: Map<string, Row[]>;
  locations: Row[];
  leadForms: Map<string, Row & { pageId: string }>;
  pageTokens: Map<string, string>;
  audiences: Map<string, CustomAudience>;
  /** when a user token runs out (epoch ms), fixed the first time the sandbox sees it */
  tokenExpiries: Map<string, number>;
  /** Facebook Login: codes, issued tokens and their people, revoked grants */
  connect: SocialConnectState;
  /** campaign control: the campaigns above, their accounts' currencies, their budget changes */
  world: CampaignWorld;
  /** asynchronous insights report runs, by id */
  reportRuns: Map<string, ReportRun>;
}

interface ReportRun {
  rows: Row[];
  fields: string[];
  polls: number;
  account: string;
  range: { since?: string; until?: string };
}

function seedState(): SocialState {
  const tokenExpiries = new Map<string, number>();
  const campaigns = new Map([[DEMO_AD_ACCOUNT, seedCampaigns()]]);
  return {
    world: { campaigns, accounts: new Map([[DEMO_AD_ACCOUNT, { currency: 'USD', timezone: 'America/Los_Angeles' }]]), budgetChanges: new Map(), nextId: 1 },
    reportRuns: new Map(),
    tokenExpiries,
    connect: newSocialConnectState(tokenExpiries),
    images: new Map([[DEMO_AD_ACCOUNT, seedImages(DEMO_AD_ACCOUNT)]]),
    videos: new Map([[DEMO_AD_ACCOUNT, seedVideos(DEMO_PAGE_ID)]]),
    campaigns,
    pages: new Map([[DEMO_PAGE_ID, { name: 'Example Outfitters', photoAccountId: DEMO_PHOTO_ACCOUNT }]]),
    photoMedia: new Map([[DEMO_PHOTO_ACCOUNT, seedPhotoMedia()]]),
    locations: seedLocations(),
    leadForms: new Map(),
    pageTokens: new Map(),
    audiences: new Map(),
  };
}

export interface GraphCall {
  request: SandboxRequest;
  /** query and body parameters together */
  params: Record<string, unknown>;
  token: string;
  publicBase: string;
}

/** The caller's token, checked like the platform does; a response when the call must stop here. */
function authenticate(request: SandboxRequest, appSecret: string | undefined): GraphCall | SandboxResponse {
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
function requestedFields(call: GraphCall, node: NodeType): string[] | SandboxResponse {
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

function project(row: Row, fields: string[]): Row {
  const out: Row = {};
  for (const field of [...new Set(['id', ...fields])]) {
    if (row[field] !== undefined) out[field] = row[field];
  }
  return out;
}

const encodeCursor = (index: number) => Buffer.from(`sandbox:${index}`).toString('base64');
function decodeCursor(cursor: string): number | undefined {
  const match = Buffer.from(cursor, 'base64')
    .toString('utf8')
    .match(/^sandbox:(\d+)$/);
  return match ? Number(match[1]) : undefined;
}

function parseLimit(call: GraphCall, fallback: number, max: number): number | SandboxResponse {
  if (call.params.limit === undefined) return fallback;
  const limit = Number(call.params.limit);
  if (!Number.isInteger(limit) || limit < 1) return graphError(100, '(#100) Param limit must be a positive integer');
  return Math.min(limit, max);
}

/** Cursor paging as the platform does it, `next`/`previous` URLs carrying the caller's token. */
function page(call: GraphCall, path: string, rows: Row[], fields: string[], defaultLimit = 25, maxLimit = 100): SandboxResponse {
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

const usageHeaders = (accountId?: string): Record<string, string> => ({
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

function withHeaders(response: SandboxResponse, headers: Record<string, string>): SandboxResponse {
  return { ...response, headers: { ...headers, ...response.headers } };
}

function parseJsonArray(value: unknown, name: string): string[] | SandboxResponse {
  if (Array.isArray(value)) return value.map(String);
  try {
    const parsed: unknown = JSON.parse(String(value));
    if (Array.isArray(parsed)) return parsed.map(String);
  } catch {
    // falls through to the error
  }
  return graphError(100, `(#100) param ${name} must be an array.`);
}

const fold = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();

type GraphHandler = (call: GraphCall, state: SocialState, params: Record<string, string>) => SandboxResponse;

function accountEdge(edge: 'images' | 'videos' | 'campaigns', node: NodeType): GraphHandler {
  return (call, state, { account }) => {
    const rows = state[edge].get(account as string);
    if (!rows) return unknownObject('GET', `act_${account}`);
    const fields = requestedFields(call, node);
    if (!Array.isArray(fields)) return fields;
    let selected = rows;
    if (edge === 'campaigns') {
      const filter =
        call.params.effective_status === undefined
          ? ['ACTIVE', 'PAUSED', 'IN_PROCESS', 'WITH_ISSUES']
          : parseJsonArray(call.params.effective_status, 'effective_status');
      if (!Array.isArray(filter)) return filter;
      const unknown = filter.find((status) => !EFFECTIVE_STATUSES.includes(status));
      if (unknown) return graphError(100, `(#100) Param effective_status[0] must be one of {${EFFECTIVE_STATUSES.join(', ')}}`);
      selected = rows.filter((row) => filter.includes(String(row.effective_status)));
    }
    return withHeaders(
      page(call, `act_${account}/${edge === 'images' ? 'adimages' : edge === 'videos' ? 'advideos' : 'campaigns'}`, selected, fields),
      usageHeaders(account),
    );
  };
}

const INSIGHT_FIELDS = [
  'account_id',
  'account_currency',
  'campaign_id',
  'campaign_name',
  'date_start',
  'date_stop',
  'impressions',
  'clicks',
  'spend',
  'reach',
  'frequency',
  'ctr',
  'cpc',
  'cpm',
  'actions',
  'action_values',
];
/** rows one synchronous insights answer computes at most: beyond, the platform asks for less (code 1) */
const MAX_SYNC_INSIGHT_ROWS = 2_000;

/** Insights of one campaign (`/{campaign}/insights`) or of an account's campaigns (`act_{id}/insights?level=campaign`). */
function insights(call: GraphCall, state: SocialState, campaigns: Array<{ row: Row; account: string }>, path: string, asReport = false): SandboxResponse {
  const fields = String(call.params.fields ?? 'impressions,spend')
    .split(',')
    .map((field) => field.trim())
    .filter(Boolean);
  const unknown = fields.find((field) => !INSIGHT_FIELDS.includes(field));
  if (unknown) return graphError(100, `(#100) ${unknown} is not valid for fields param.`);
  if (call.params.time_increment !== undefined && String(call.params.time_increment) !== '1' && call.params.time_increment !== 'all_days')
    return graphError(100, '(#100) Param time_increment must be a number between 1 and 90, or monthly or all_days');
  let range: { since?: string; until?: string };
  try {
    range = JSON.parse(String(call.params.time_range ?? '{}')) as { since?: string; until?: string };
  } catch {
    return graphError(100, '(#100) Param time_range must be a JSON object with since and until');
  }
  const dated = /^\d{4}-\d{2}-\d{2}$/;
  if (!range.since || !range.until || !dated.test(range.since) || !dated.test(range.until) || range.since > range.until)
    return graphError(100, '(#100) Param time_range must be a JSON object with since and until, since not after until');
  const rows: Row[] = [];
  for (const { row, account } of campaigns) {
    const { currency } = accountOf(state.world, account);
    for (const date of daysBetween(range.since, range.until, clock.today(0))) {
      const insight = dailyInsight(row, account, currency, date);
      if (insight) rows.push(insight);
    }
  }
  rows.sort((a, b) => String(a.date_start).localeCompare(String(b.date_start)) || String(a.campaign_id).localeCompare(String(b.campaign_id)));
  if (asReport) {
    // an asynchronous report run: any size, read at /{run}/insights once the run says it is complete
    const id = `60219876${String(state.reportRuns.size + 1).padStart(8, '0')}`;
    state.reportRuns.set(id, { rows, fields, polls: 0, account: String(campaigns[0]?.account ?? ''), range });
    return { status: 200, body: { report_run_id: id } };
  }
  if (rows.length > MAX_SYNC_INSIGHT_ROWS)
    return graphError(1, "Please reduce the amount of data you're asking for, then retry your request", { is_transient: false }, 500);
  return page(call, path, rows, fields, 25, 5_000);
}

/** A report run: `Job Running` at the first look, `Job Completed` from the second on. */
function reportRunStatus(run: ReportRun, id: string): SandboxResponse {
  run.polls++;
  const done = run.polls > 1;
  return {
    status: 200,
    body: {
      id,
      account_id: run.account,
      async_status: done ? 'Job Completed' : 'Job Running',
      async_percent_completion: done ? 100 : 42,
      is_running: !done,
      date_start: run.range.since,
      date_stop: run.range.until,
    },
  };
}

const campaignInsightsNode =
  (asReport: boolean): GraphHandler =>
  (call, state, { node }) => {
    const run = state.reportRuns.get(node as string);
    if (run && !asReport)
      return run.polls > 1 ? page(call, `${node}/insights`, run.rows, run.fields, 25, 500) : graphError(100, '(#100) The report is not ready yet');
    const campaign = findCampaign(state.world, node as string);
    if (!campaign) return unknownObject(asReport ? 'POST' : 'GET', node as string);
    return insights(call, state, [campaign], `${node}/insights`, asReport);
  };

const accountInsights =
  (asReport: boolean): GraphHandler =>
  (call, state, params) =>
    accountInsightsOf(call, state, params, asReport);

const accountInsightsOf = (call: GraphCall, state: SocialState, { account }: Record<string, string | undefined>, asReport: boolean): SandboxResponse => {
  const rows = state.campaigns.get(account as string);
  if (!rows) return unknownObject('GET', `act_${account}`);
  if (call.params.level !== 'campaign') return graphError(100, '(#100) This sandbox answers account insights at level=campaign.');
  let wanted: string[] | undefined;
  if (call.params.filtering !== undefined) {
    const filters = parseJsonFilters(call.params.filtering);
    if (!filters) return graphError(100, '(#100) Param filtering must be an array of {field, operator, value}');
    const byId = filters.find((filter) => filter.field === 'campaign.id' && filter.operator === 'IN');
    wanted = byId ? (byId.value as unknown[]).map(String) : undefined;
  }
  const selected = rows.filter((row) => !wanted || wanted.includes(String(row.id))).map((row) => ({ row, account: account as string }));
  return insights(call, state, selected, `act_${account}/insights`, asReport);
};

function parseJsonFilters(value: unknown): Array<{ field: string; operator: string; value: unknown }> | undefined {
  try {
    const parsed: unknown = typeof value === 'string' ? JSON.parse(value) : value;
    return Array.isArray(parsed) &&
      parsed.every((filter) => filter && typeof filter === 'object' && 'field' in filter && 'operator' in filter && 'value' in filter)
      ? (parsed as Array<{ field: string; operator: string; value: unknown }>)
      : undefined;
  } catch {
    return undefined;
  }
}

const getPhotoMedia: GraphHandler = (call, state, { node }) => {
  const rows = state.photoMedia.get(node as string);
  if (!rows) return unknownObject('GET', node as string);
  const fields = requestedFields(call, 'IGMedia');
  if (!Array.isArray(fields)) return fields;
  return page(call, `${node}/media`, rows, fields);
};

const search: GraphHandler = (call, state) => {
  if (call.params.type !== 'adgeolocation')
    return graphError(100, '(#100) Param type must be one of {adgeolocation, adinterest, adeducationschool, adworkemployer, adlocale}');
  const query = call.params.q;
  if (query === undefined || String(query).trim() === '') return graphError(100, '(#100) The parameter q is required');
  let types = ['country', 'region', 'city', 'zip'];
  if (call.params.location_types !== undefined) {
    const parsed = parseJsonArray(call.params.location_types, 'location_types');
    if (!Array.isArray(parsed)) return parsed;
    const unknown = parsed.find((type) => !LOCATION_TYPES.includes(type));
    if (unknown) return graphError(100, `(#100) Param location_types[0] must be one of {${LOCATION_TYPES.join(', ')}}`);
    // a city search also returns entries reclassified below city level
    types = parsed.includes('city') ? [...parsed, 'subcity', 'neighborhood'] : parsed;
  }
  const limit = parseLimit(call, 25, 1000);
  if (typeof limit !== 'number') return limit;
  const needle = fold(String(query).trim());
  const data = state.locations
    .filter((location) => types.includes(String(location.type)))
    .filter((location) =>
      fold(String(location.name))
        .split(/[\s-]+/)
        .some((word, index, words) => word.startsWith(needle) || words.slice(index).join(' ').startsWith(needle)),
    )
    .filter((location) => call.params.country_code === undefined || location.country_code === call.params.country_code)
    .slice(0, limit);
  return { status: 200, body: { data } };
};

function pageToken(state: SocialState, pageId: string, userToken: string): string {
  const token = `EAAPage${createHmac('sha256', pageId).update(userToken).digest('hex').slice(0, 32)}`;
  state.pageTokens.set(token, pageId);
  return token;
}

const getNode: GraphHandler = (call, state, { node }) => {
  const id = node as string;
  const run = state.reportRuns.get(id);
  if (run) return reportRunStatus(run, id);
  const pageRecord = state.pages.get(id);
  if (pageRecord) {
    const fields = requestedFields(call, 'Page');
    if (!Array.isArray(fields)) return fields;
    const row: Row = {
      id,
      name: pageRecord.name,
      category: 'Clothing (Brand)',
      tasks: ['ADVERTISE', 'ANALYZE', 'CREATE_CONTENT', 'MANAGE'],
      ...(pageRecord.photoAccountId ? { instagram_business_account: { id: pageRecord.photoAccountId } } : {}),
      ...(fields.includes('access_token') ? { access_token: pageToken(state, id, call.token) } : {}),
    };
    return { status: 200, body: project(row, fields) };
  }
  const audience = state.audiences.get(id);
  if (audience) {
    const row: Row = {
      id,
      account_id: audience.accountId,
      name: audience.name,
      subtype: audience.subtype,
      approximate_count_lower_bound: audience.memberCount,
      operation_status: { code: 200, description: 'Normal' },
    };
    return { status: 200, body: project(row, String(call.params.fields ?? 'id').split(',')) };
  }
  const form = state.leadForms.get(id);
  if (form) {
    const fields = requestedFields(call, 'LeadgenForm');
    if (!Array.isArray(fields)) return fields;
    return { status: 200, body: project(form, fields) };
  }
  const campaign = findCampaign(state.world, id);
  if (campaign) {
    const fields = requestedFields(call, 'Campaign');
    if (!Array.isArray(fields)) return fields;
    return withHeaders({ status: 200, body: project({ ...campaign.row, account_id: campaign.account }, fields) }, usageHeaders(campaign.account));
  }
  return unknownObject('GET', id);
};

function isHttpUrl(value: unknown): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(String(value)).protocol);
  } catch {
    return false;
  }
}

function parseObject(value: unknown): Row | undefined {
  if (value && typeof value === 'object' && !Array.isArray(value)) return value as Row;
  if (typeof value === 'string') {
    try {
      const parsed: unknown = JSON.parse(value);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Row;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

const createLeadgenForm: GraphHandler = (call, state, { node }) => {
  const pageId = node as string;
  if (!state.pages.has(pageId)) return unknownObject('POST', pageId);
  if (state.pageTokens.get(call.token) !== pageId) return graphError(190, '(#190) This method must be called with a Page Access Token');
  const { params } = call;
  if (!params.name || typeof params.name !== 'string') return graphError(100, '(#100) The parameter name is required');
  const questions = typeof params.questions === 'string' ? (JSON.parse(params.questions) as unknown) : params.questions;
  if (!Array.isArray(questions) || questions.length === 0) return graphError(100, '(#100) The parameter questions is required');
  const keys = new Set<string>();
  for (const [index, question] of (questions as Row[]).entries()) {
    if (!LEADGEN_QUESTION_TYPES.has(String(question.type)))
      return graphError(100, `(#100) Param questions[${index}][type] must be one of {${[...LEADGEN_QUESTION_TYPES].join(', ')}}`);
    if (question.type === 'CUSTOM' && !question.label) return graphError(100, `(#100) Custom questions need a label (questions[${index}])`);
    if (question.key !== undefined) {
      if (keys.has(String(question.key))) return graphError(100, `(#100) Question keys must be unique: ${String(question.key)}`);
      keys.add(String(question.key));
    }
    for (const option of (question.options as Row[] | undefined) ?? []) {
      if (typeof option.value !== 'string' || typeof option.key !== 'string')
        return graphError(100, `(#100) Each option of questions[${index}] needs a value and a key`);
    }
  }
  if (params.locale !== undefined && !LEADGEN_LOCALES.has(String(params.locale)))
    return graphError(100, `(#100) Param locale must be one of {${[...LEADGEN_LOCALES].join(', ')}}`);
  const privacy = parseObject(params.privacy_policy);
  if (!privacy || !isHttpUrl(privacy.url))
    return graphError(100, '(#100) A valid privacy policy URL is required', { error_user_msg: 'Please enter a valid privacy policy URL.' });
  if (privacy.link_text !== undefined && String(privacy.link_text).length > 70)
    return graphError(100, '(#100) Privacy policy link text must be 70 characters or fewer');
  const thankYou = params.thank_you_page === undefined ? undefined : parseObject(params.thank_you_page);
  if (params.thank_you_page !== undefined) {
    if (!thankYou?.title) return graphError(100, '(#100) Param thank_you_page[title] is required');
    if (!BUTTON_TYPES.has(String(thankYou.button_type)))
      return graphError(100, `(#100) Param thank_you_page[button_type] must be one of {${[...BUTTON_TYPES].join(', ')}}`);
    if (thankYou.button_type === 'VIEW_WEBSITE' && !isHttpUrl(thankYou.website_url)) return graphError(100, '(#100) A website URL is required for this button');
    if (thankYou.button_type === 'CALL_BUSINESS' && !/^\+?[\d\s().-]{6,20}$/.test(String(thankYou.business_phone_number ?? ''))) {
      return graphError(192, '(#192) Invalid phone number', { error_user_msg: 'Please enter a valid phone number.' });
    }
  }
  const card = params.context_card === undefined ? undefined : parseObject(params.context_card);
  if (card && !['LIST_STYLE', 'PARAGRAPH_STYLE'].includes(String(card.style)))
    return graphError(100, '(#100) Param context_card[style] must be one of {LIST_STYLE, PARAGRAPH_STYLE}');
  if (
    params.is_optimized_for_quality !== undefined &&
    typeof params.is_optimized_for_quality !== 'boolean' &&
    !['true', 'false'].includes(String(params.is_optimized_for_quality))
  ) {
    return graphError(100, '(#100) Param is_optimized_for_quality must be a boolean');
  }
  const id = `10293847561${String(2000 + state.leadForms.size).padStart(5, '0')}`;
  state.leadForms.set(id, {
    id,
    pageId,
    name: params.name,
    status: 'ACTIVE',
    locale: params.locale ?? 'EN_US',
    questions,
    privacy_policy: privacy,
    ...(thankYou ? { thank_you_page: thankYou } : {}),
    ...(card ? { context_card: card } : {}),
    is_optimized_for_quality: String(params.is_optimized_for_quality) === 'true',
    ...(params.question_page_custom_headline ? { question_page_custom_headline: params.question_page_custom_headline } : {}),
    created_time: clock.date().toISOString().replace('Z', '+0000'),
  });
  return { status: 200, body: { id } };
};

const createCustomAudience: GraphHandler = (call, state, { account }) => {
  if (!state.images.has(account as string)) return unknownObject('POST', `act_${account}`);
  const { name, subtype, customer_file_source: source } = call.params;
  if (!name || typeof name !== 'string') return graphError(100, '(#100) The parameter name is required');
  if (subtype !== undefined && subtype !== 'CUSTOM')
    return graphError(100, '(#100) Only customer-file audiences (subtype CUSTOM) are supported by this sandbox');
  if (source !== undefined && !['USER_PROVIDED_ONLY', 'PARTNER_PROVIDED_ONLY', 'BOTH_USER_AND_PARTNER_PROVIDED'].includes(String(source))) {
    return graphError(100, '(#100) Param customer_file_source must be one of {USER_PROVIDED_ONLY, PARTNER_PROVIDED_ONLY, BOTH_USER_AND_PARTNER_PROVIDED}');
  }
  const id = `1202105550000${String(10000 + state.audiences.size)}`;
  state.audiences.set(id, { id, accountId: account as string, name, subtype: 'CUSTOM', memberCount: 0, recentMembers: [], sessions: new Map(), batches: [] });
  return withHeaders({ status: 200, body: { id } }, usageHeaders(account));
};

function parseParam(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return undefined;
  }
}

const audienceError = (subcode: number, message: string) =>
  graphError(2650, `(#2650) ${message}`, { error_subcode: subcode, error_user_title: 'Audience update failed', error_user_msg: message });

/** `POST|DELETE /{audience}/users` and `POST /{audience}/usersreplace`: sessions, limits and the platform's invalid-entry check. */
function audienceUsers(edge: 'users' | 'usersreplace', method: 'POST' | 'DELETE'): GraphHandler {
  return (call, state, { node }) => {
    const audience = state.audiences.get(node as string);
    if (!audience) return unknownObject(method, node as string);
    const payload = parseParam(call.params.payload) as { schema?: unknown; data?: unknown; is_raw?: unknown } | undefined;
    if (!payload || typeof payload !== 'object') return graphError(100, '(#100) The parameter payload is required');
    const schema = typeof payload.schema === 'string' ? [payload.schema] : payload.schema;
    if (!Array.isArray(schema) || schema.length === 0) return graphError(100, '(#100) payload.schema must be a key or a list of keys');
    const unknownKey = schema.find((key) => !AUDIENCE_KEYS.has(String(key)));
    if (unknownKey !== undefined) return graphError(100, `(#100) Invalid schema key: ${String(unknownKey)}`);
    if (!Array.isArray(payload.data)) return graphError(100, '(#100) payload.data must be a list');
    const rows = (payload.data as unknown[]).map((row) => (Array.isArray(row) ? row : [row]));
    if (rows.length > MAX_AUDIENCE_ROWS) return graphError(100, `(#100) A request may hold at most ${MAX_AUDIENCE_ROWS} rows; it held ${rows.length}`);
    const badWidth = rows.findIndex((row) => row.length !== schema.length);
    if (badWidth >= 0) return graphError(100, `(#100) Row ${badWidth} has ${rows[badWidth]?.length} values for ${schema.length} schema keys`);

    const session = parseParam(call.params.session) as Record<string, unknown> | undefined;
    if (edge === 'usersreplace' && !session) return graphError(100, '(#100) The parameter session is required');
    const sessionId = session ? String(session.session_id ?? '') : `implicit-${audience.batches.length}`;
    if (session && !/^[1-9]\d*$/.test(sessionId)) return graphError(100, '(#100) session.session_id must be a positive integer');
    let upload = audience.sessions.get(sessionId);
    const batchSeq = Number(session?.batch_seq ?? 1);
    if (upload?.lastBatchSeen) return audienceError(1870159, 'This upload session has already finished; start a new session.');
    if (edge === 'usersreplace') {
      if (!upload && batchSeq !== 1) return audienceError(1870147, 'The first batch of a replace session (batch_seq 1) was not received.');
      if (upload && batchSeq === 1) return audienceError(1870144, 'A replace session may start only once.');
    }
    if (!upload) {
      upload = { received: 0, invalid: 0, lastBatchSeen: false, replace: edge === 'usersreplace' };
      audience.sessions.set(sessionId, upload);
      if (edge === 'usersreplace') audience.memberCount = 0;
    }
    const repeated =
      session !== undefined &&
      audience.batches.some((seen) => String(seen.session.session_id) === sessionId && Number(seen.session.batch_seq ?? 1) === batchSeq);
    const valid: string[] = [];

    const samples: Record<string, string> = {};
    let invalid = 0;
    for (const row of rows) {
      const badIndex = row.findIndex((cell, index) => {
        const text = String(cell ?? '');
        if (text === '') return false;
        const key = String(schema[index]);
        if (key === 'MADID' || key === 'MOBILE_ADVERTISER_ID') return !/^[0-9a-f-]{10,64}$/.test(text);
        if (UNHASHED_KEYS.has(key)) return false;
        return !/^[0-9a-f]{64}$/.test(text);
      });
      if (badIndex >= 0 || row.every((cell) => String(cell ?? '') === '')) {
        invalid++;
        if (Object.keys(samples).length < 100) samples[String(row[Math.max(0, badIndex)])] = String(schema[Math.max(0, badIndex)]);
        continue;
      }
      valid.push(JSON.stringify(row));
    }
    audience.batches.push({
      edge,
      method,
      session: session ?? {},
      rows: rows.length,
      members: valid.length,
      digest: memberDigest(valid),
      ...(repeated ? { repeated } : {}),
    });
    if (!repeated) {
      audience.memberCount = Math.max(0, audience.memberCount + (method === 'DELETE' ? -valid.length : valid.length));
      if (method !== 'DELETE') audience.recentMembers = [...audience.recentMembers, ...valid.slice(-RECENT_MEMBERS)].slice(-RECENT_MEMBERS);
    }
    upload.received += rows.length;
    upload.invalid += invalid;
    if (session?.last_batch_flag === true || session?.last_batch_flag === 'true') upload.lastBatchSeen = true;
    return withHeaders(
      {
        status: 200,
        body: {
          audience_id: audience.id,
          session_id: sessionId,
          num_received: upload.received,
          num_invalid_entries: upload.invalid,
          invalid_entry_samples: samples,
        },
      },
      usageHeaders(audience.accountId),
    );
  };
}

export interface SocialSandbox extends Sandbox {
  state: SocialState;
}

/** A long-lived user token lives 60 days; a token naming `EXPIRESIN<n>D` runs out n days after the sandbox first sees it. */
const USER_TOKEN_DAYS = 60;

/**
 * docs/platforms.md, "What every connect round trip shares": what the platform knows of a user token, asked with our app token
 * (`<app id>|<app secret>`). Always HTTP 200; an invalid token says so in `data`.
 */
function debugToken(request: SandboxRequest, state: SocialState, appId: string, appSecret: string): SandboxResponse {
  const appToken = request.query.get('access_token') ?? request.headers.authorization?.replace(/^Bearer\s+/, '');
  if (appToken !== `${appId}|${appSecret}`) return graphError(190, 'Invalid OAuth access token signature.');
  const input = request.query.get('input_token') ?? '';
  const invalid = (message: string, subcode?: number) => ({
    status: 200,
    body: { data: { app_id: appId, type: 'USER', is_valid: false, scopes: [], error: { code: 190, message, ...(subcode ? { subcode } : {}) } } },
  });
  if (state.connect.revokedTokens.has(input)) return invalid(`Error validating access token: The user has not authorized application ${appId}.`);
  if (!/^EAA[A-Za-z0-9]{8,}$/.test(input) || input.includes('REVOKED'))
    return invalid(
      'Error validating access token: The session has been invalidated because the user changed their password or Facebook has changed the session for security reasons.',
      460,
    );
  const now = clock.now();
  if (!state.tokenExpiries.has(input)) {
    const days = Number(/EXPIRESIN(\d+)D/.exec(input)?.[1] ?? USER_TOKEN_DAYS);
    state.tokenExpiries.set(input, input.includes('EXPIRED') ? now - 60_000 : now + days * 86_400_000);
  }
  const expiresAt = state.tokenExpiries.get(input) as number;
  if (expiresAt <= now) return invalid(`Error validating access token: Session has expired.`, 463);
  return {
    status: 200,
    body: {
      data: {
        app_id: appId,
        type: 'USER',
        application: 'Ad campaign API (sandbox)',
        data_access_expires_at: Math.floor((now + 90 * 86_400_000) / 1000),
        expires_at: Math.floor(expiresAt / 1000),
        is_valid: true,
        scopes: GRANTED_PERMISSIONS,
        user_id: state.connect.tokenPeople.has(input)
          ? appScopedIdOf(state.connect, input)
          : createHmac('sha256', 'sandbox-user').update(input).digest('hex').replace(/[a-f]/g, '').slice(0, 15) || '100000000000001',
      },
    },
  };
}

const ID = '(?<node>[0-9]+)';
const VERSION = '/(?<version>v[0-9]+\\.[0-9]+)';

type JournaledAudience = CustomAudience & { journaledBatches?: number };
interface JournalLine {
  id: string;
  accountId: string;
  name: string;
  subtype: string;
  sessions: Array<[string, UploadSessionState]>;
  batches: AudienceBatch[];
  memberCount?: number;
  recentMembers?: string[];
  /** journals written before counts: every member's change */
  changes?: Array<['a' | 'd', string] | ['c']>;
}

/**
 * The audiences, kept across restarts of the local stack (the platform would not forget them): an
 * append-only journal, one line per audience a call changed, with its counts and its new batches, so a
 * batch costs a few hundred bytes to keep, whatever its rows.
 */
function journalAudiences(file: string, audiences: Map<string, CustomAudience>): void {
  let lines = '';
  for (const audience of audiences.values() as Iterable<JournaledAudience>) {
    if (audience.journaledBatches === audience.batches.length) continue;
    const line: JournalLine = {
      id: audience.id,
      accountId: audience.accountId,
      name: audience.name,
      subtype: audience.subtype,
      sessions: [...audience.sessions],
      batches: audience.batches.slice(audience.journaledBatches ?? 0),
      memberCount: audience.memberCount,
      recentMembers: audience.recentMembers,
    };
    lines += `${JSON.stringify(line)}\n`;
    audience.journaledBatches = audience.batches.length;
  }
  if (lines) appendFileSync(file, lines);
}

/** The audiences a journal holds (also what tests read of the sandbox's platform side). */
export function loadAudiences(file: string): Map<string, CustomAudience> {
  const audiences = new Map<string, CustomAudience>();
  if (!existsSync(file)) return audiences;
  const journal = readFileSync(file, 'utf8');
  // a line still being written (or torn by a kill) is not there yet
  for (const text of journal.slice(0, journal.lastIndexOf('\n') + 1).split('\n')) {
    if (!text) continue;
    const line = JSON.parse(text) as JournalLine;
    const audience: JournaledAudience = audiences.get(line.id) ?? {
      id: line.id,
      accountId: line.accountId,
      name: line.name,
      subtype: line.subtype,
      memberCount: 0,
      recentMembers: [],
      sessions: new Map(),
      batches: [],
    };
    Object.assign(audience, { name: line.name, sessions: new Map(line.sessions) });
    audience.batches.push(...line.batches);
    if (line.memberCount !== undefined) audience.memberCount = line.memberCount;
    if (line.recentMembers) audience.recentMembers = line.recentMembers;
    for (const [op] of line.changes ?? []) audience.memberCount = op === 'c' ? 0 : Math.max(0, audience.memberCount + (op === 'a' ? 1 : -1));
    audience.journaledBatches = audience.batches.length;
    audiences.set(line.id, audience);
  }
  return audiences;
}

/**
 * `audiencesFile`: where audiences and their upload sessions are kept across restarts (the data
 * folder); `campaignsFile`: where the campaigns and their budget changes are.
 */
export async function startSocialSandbox(
  options: { appId?: string; appSecret?: string; audiencesFile?: string; campaignsFile?: string } = {},
): Promise<SocialSandbox> {
  const state = seedState();
  const { campaignsFile } = options;
  if (campaignsFile) {
    state.world = loadCampaignWorld(campaignsFile, state.world);
    state.campaigns = state.world.campaigns;
  }
  /** a change to the campaigns, kept in the data folder once it is made */
  const campaignWrite =
    (handle: GraphHandler): GraphHandler =>
    (call, state, params) => {
      const answer = handle(call, state, params);
      if (campaignsFile) saveCampaignWorld(campaignsFile, state.world);
      return answer;
    };
  const notACampaign = (method: string, id: string) => unknownObject(method, id);
  const { audiencesFile } = options;
  if (audiencesFile) {
    state.audiences = loadAudiences(audiencesFile);
    // a line torn by a kill is cut off, so that the next one starts on a line of its own
    if (existsSync(audiencesFile)) truncateSync(audiencesFile, readFileSync(audiencesFile).lastIndexOf(0x0a) + 1);
  }
  const persisted =
    (handle: GraphHandler): GraphHandler =>
    (call, state, params) => {
      const answer = handle(call, state, params);
      if (audiencesFile && 'status' in answer && answer.status === 200) journalAudiences(audiencesFile, state.audiences);
      return answer;
    };
  const appSecret = options.appSecret ?? SANDBOX_APP_CREDENTIALS.SOCIAL_APP_SECRET;
  const appId = options.appId ?? SANDBOX_APP_CREDENTIALS.SOCIAL_APP_ID;
  let publicBase = '';
  const graph = (method: string, pattern: string, handle: GraphHandler): SandboxRoute => ({
    method,
    path: new RegExp(`^${VERSION}${pattern}$`),
    handle: (request, params) => {
      if (!SUPPORTED_VERSIONS.has(params.version as string)) {
        return graphError(2635, `(#2635) You are calling a deprecated version of the Ads API. Please update to the latest version: v26.0.`);
      }
      const call = authenticate(request, appSecret);
      if ('status' in call) return call;
      if (state.connect.revokedTokens.has(call.token))
        return graphError(190, `Error validating access token: The user has not authorized application ${appId}.`);
      return handle({ ...call, publicBase: `${publicBase}/${params.version}` }, state, params);
    },
  });
  const routes: SandboxRoute[] = [
    { method: 'GET', path: new RegExp(`^${VERSION}/dialog/oauth$`), handle: (request) => consentDialog(request, state.connect, appId) },
    { method: 'POST', path: new RegExp(`^${VERSION}/dialog/oauth$`), handle: (request) => consentAnswer(request, state.connect, appId) },
    { method: 'GET', path: new RegExp(`^${VERSION}/oauth/access_token$`), handle: (request) => accessToken(request, state.connect, appId, appSecret) },
    graph('GET', '/me', (call) => me(call.token, state.connect)),
    graph('GET', '/me/adaccounts', (call) => myAdAccounts(call.token, state.connect)),
    graph('GET', '/me/accounts', (call) => myPages(call.token, state.connect)),
    graph('GET', '/me/permissions', () => myPermissions()),
    graph('DELETE', '/me/permissions', (call) => revokePermissions(call.token, state.connect)),
    { method: 'GET', path: new RegExp(`^${VERSION}/debug_token$`), handle: (request) => debugToken(request, state, appId, appSecret) },
    graph('GET', '/act_(?<account>[0-9]+)/adimages', accountEdge('images', 'AdImage')),
    graph('GET', '/act_(?<account>[0-9]+)/advideos', accountEdge('videos', 'AdVideo')),
    graph('GET', '/act_(?<account>[0-9]+)/campaigns', accountEdge('campaigns', 'Campaign')),
    graph('GET', '/search', search),
    graph('GET', `/${ID}/media`, getPhotoMedia),
    graph('POST', `/${ID}/leadgen_forms`, createLeadgenForm),
    graph('POST', '/act_(?<account>[0-9]+)/customaudiences', persisted(createCustomAudience)),
    graph('POST', `/${ID}/users`, persisted(audienceUsers('users', 'POST'))),
    graph('DELETE', `/${ID}/users`, persisted(audienceUsers('users', 'DELETE'))),
    graph('POST', `/${ID}/usersreplace`, persisted(audienceUsers('usersreplace', 'POST'))),
    graph('GET', '/act_(?<account>[0-9]+)/insights', accountInsights(false)),
    graph('POST', '/act_(?<account>[0-9]+)/insights', accountInsights(true)),
    graph('GET', `/${ID}/insights`, campaignInsightsNode(false)),
    graph('POST', `/${ID}/insights`, campaignInsightsNode(true)),
    graph('GET', '/act_(?<account>[0-9]+)', (call, state, { account }) =>
      adAccount(state.world, account as string, String(call.params.fields ?? 'id').split(',')),
    ),
    graph(
      'POST',
      '/act_(?<account>[0-9]+)/campaigns',
      campaignWrite((call, state, { account }) => createCampaign(state.world, account as string, call.params)),
    ),
    graph(
      'POST',
      `/${ID}`,
      campaignWrite((call, state, { node }) => updateCampaign(state.world, node as string, call.params) ?? notACampaign('POST', node as string)),
    ),
    graph(
      'DELETE',
      `/${ID}`,
      campaignWrite((_call, state, { node }) => deleteCampaign(state.world, node as string) ?? notACampaign('DELETE', node as string)),
    ),
    graph('GET', `/${ID}`, getNode),
  ];
  const seedCampaigns = (account: string, count: number) => {
    const ids = Array.from(
      { length: count },
      (_, index) =>
        (
          createCampaign(state.world, account, { name: `Scale ${index + 1}`, special_ad_categories: '[]', status: 'ACTIVE', daily_budget: '5000' }).body as {
            id: string;
          }
        ).id,
    );
    if (campaignsFile) saveCampaignWorld(campaignsFile, state.world);
    return ids;
  };
  const sandbox = await startSandbox(
    'social',
    routes,
    (request) =>
      graphError(
        100,
        `Unsupported ${request.method.toLowerCase()} request. Object with ID '${request.path.split('/').pop()}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
        { error_subcode: 33 },
      ),
    0,
    seedCampaigns,
  );
  publicBase = sandbox.url;
  return Object.assign(sandbox, { state });
}
