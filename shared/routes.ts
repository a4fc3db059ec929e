import { REFERENCE_SCRIPT_FILE, REFERENCE_SCRIPT_MODULE, REFERENCE_SCRIPT_PATH } from './docs/reference-files.ts';

/**
 * The route table: one entry per operation. The local gateway serves it and the CDK stack deploys it,
 * so the two cannot drift. `entry` is the handler file; each exports `handler`.
 */
export type Platform = 'social' | 'searchads' | 'professional';

export interface Route {
  operation: string;
  method: 'POST' | 'GET';
  path: string;
  entry: string;
  /** upstream platform the function calls (it then needs the app-credentials secret) */
  platform?: Platform;
  /** the body is multipart/form-data (a CSV upload) and the function stages it in the upload bucket */
  usesUploadBucket?: boolean;
  /** DynamoDB access beyond reading keys and users */
  writes?: boolean;
  /** seals or opens platform tokens (needs the connection key); every platform operation does */
  sealsConnections?: boolean;
  idempotent?: boolean;
  memoryMb?: number;
  timeoutSeconds?: number;
  /** NODE_OPTIONS the function runs with (the bench measures with the same) */
  nodeOptions?: string;
  /** answers without an API key and touches no table, bucket or secret (the published interface) */
  public?: boolean;
  /** files the function reads at run time, copied beside its bundle: file name → module specifier */
  bundledFiles?: Record<string, string>;
}

/**
 * The CSV functions stream files of any size through small buffers; a 4 MB young generation keeps
 * their memory flat (V8 otherwise grows it to 32 MB per semi-space under that allocation rate) at
 * no cost in throughput, as `npm run bench` shows.
 */
export const CSV_NODE_OPTIONS = '--max-semi-space-size=4';

export const routes: readonly Route[] = [
  { operation: 'create_user', method: 'POST', path: '/users/create_user', entry: 'functions/create-user.ts', writes: true, idempotent: true, sealsConnections: true },
  { operation: 'get_profile', method: 'POST', path: '/users/get_profile', entry: 'functions/get-profile.ts' },
  {
    operation: 'get_campaign_optimization_history',
    method: 'POST',
    path: '/optimize_me/get_campaign_optimization_history',
    entry: 'functions/get-campaign-optimization-history.ts',
  },
  {
    operation: 'record_campaign_optimization',
    method: 'POST',
    path: '/optimize_me/record_campaign_optimization',
    entry: 'functions/record-campaign-optimization.ts',
    writes: true,
    idempotent: true,
  },
  { operation: 'get_ad_account_media', method: 'POST', path: '/social/get_ad_account_media', entry: 'functions/get-ad-account-media.ts', platform: 'social' },
  { operation: 'get_photo_page_media', method: 'POST', path: '/social/get_photo_page_media', entry: 'functions/get-photo-page-media.ts', platform: 'social', writes: true },
  {
    operation: 'search_targeting_locations',
    method: 'POST',
    path: '/social/search_targeting_locations',
    entry: 'functions/search-targeting-locations.ts',
    platform: 'social',
  },
  { operation: 'get_campaigns_list', method: 'POST', path: '/social/get_campaigns_list', entry: 'functions/get-campaigns-list.ts', platform: 'social' },
  {
    operation: 'create_lead_form',
    method: 'POST',
    path: '/social/create_lead_form',
    entry: 'functions/create-lead-form.ts',
    platform: 'social',
    writes: true,
    idempotent: true,
  },
  {
    operation: 'create_social_csv_audience',
    method: 'POST',
    path: '/social/create_social_csv_audience',
    entry: 'functions/create-social-csv-audience.ts',
    platform: 'social',
    usesUploadBucket: true,
    writes: true,
    idempotent: true,
    memoryMb: 1024,
    timeoutSeconds: 28,
    nodeOptions: CSV_NODE_OPTIONS,
  },
  {
    operation: 'get_search_ads_result',
    method: 'POST',
    path: '/searchads/get_search_ads_result',
    entry: 'functions/get-search-ads-result.ts',
    platform: 'searchads',
  },
  {
    operation: 'create_search_campaign',
    method: 'POST',
    path: '/searchads/create_search_campaign',
    entry: 'functions/create-search-campaign.ts',
    platform: 'searchads',
    writes: true,
    idempotent: true,
    memoryMb: 512,
  },
  {
    operation: 'create_csv_audience',
    method: 'POST',
    path: '/professional/create_csv_audience',
    entry: 'functions/create-professional-csv-audience.ts',
    platform: 'professional',
    usesUploadBucket: true,
    writes: true,
    idempotent: true,
    memoryMb: 1024,
    timeoutSeconds: 28,
    nodeOptions: CSV_NODE_OPTIONS,
  },
  { operation: 'get_openapi_document', method: 'GET', path: '/openapi.json', entry: 'functions/openapi-document.ts', public: true },
  { operation: 'get_api_reference', method: 'GET', path: '/docs', entry: 'functions/api-reference-page.ts', public: true },
  {
    operation: 'get_api_reference_script',
    method: 'GET',
    path: REFERENCE_SCRIPT_PATH,
    entry: 'functions/api-reference-script.ts',
    public: true,
    bundledFiles: { [REFERENCE_SCRIPT_FILE]: REFERENCE_SCRIPT_MODULE },
  },
];

/** Answers every request that matches no route (404, or 405 when the path exists with another method). */
export const fallbackRoute = { operation: 'route_not_found', entry: 'functions/route-not-found.ts' } as const;

export function findRoute(method: string, path: string): { route?: Route; allowed: string[] } {
  const samePath = routes.filter((route) => route.path === path);
  return { route: samePath.find((route) => route.method === method), allowed: samePath.map((route) => route.method) };
}
