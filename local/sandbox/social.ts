import { signerTokensRoute } from './consent.ts';
import { createHmac } from 'node:crypto';
import { existsSync, readFileSync, renameSync, truncateSync, writeFileSync } from 'node:fs';
import { clock } from '../../shared/core/clock.ts';
import { SANDBOX_APP_CREDENTIALS } from './demo-data.ts';
import { startSandbox, type Sandbox, type SandboxRequest, type SandboxResponse, type SandboxRoute } from './server.ts';
import { uploadAdImage } from './social-media.ts';
import { type CustomAudience, createCustomAudience, audienceUsers, journalAudiences, loadAudiences } from './social-audiences.ts';
import {
  adAccount,
  type CampaignWorld,
  createCampaign,
  deleteCampaign,
  findCampaign,
  loadCampaignWorld,
  saveCampaignWorld,
  updateCampaign,
} from './social-campaigns.ts';
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
import {
  SUPPORTED_VERSIONS,
  type NodeType,
  EFFECTIVE_STATUSES,
  LOCATION_TYPES,
  graphError,
  unknownObject,
  authenticate,
  requestedFields,
  project,
  parseLimit,
  page,
  usageHeaders,
  withHeaders,
  parseJsonArray,
  fold,
  type GraphHandler,
} from './social-graph.ts';
import { type ReportRun, reportRunStatus, campaignInsightsNode, accountInsights } from './social-insights.ts';
import { createLeadgenForm } from './social-leadgen.ts';
import {
  campaignValidateOnly,
  checkNewCampaign,
  childrenOf,
  createAd,
  createAdSet,
  createCreative,
  deleteLaunchObject,
  filtered,
  launchObjectRow,
  type MediaCheck,
  updateLaunchObject,
} from './social-launch.ts';
import { loadVideoState, setVideoProcessing, uploadedVideo, uploadedVideoStatus, type VideoState, videoUploadPhase } from './social-videos.ts';

/**
 * The social platform sandbox: a Graph-style API as docs/platforms.md, "Social" describes it. It checks
 * tokens, appsecret_proof, `fields` and parameters as the platform does, answers with the
 * platform's error bodies, pages with cursors and with `next` URLs that embed the caller's token,
 * and keeps what is created (lead forms).
 *
 * Tokens: any `EAA…` token is a valid user token with access to the demo ad account and page; one
 * containing EXPIRED is expired (190/463); anything else cannot be parsed (190).
 */
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
  /** resumable video uploads, the videos they made and how each account's videos process (kept in a folder) */
  videoUploads: VideoState;
}

function seedState(videosDir?: string): SocialState {
  const tokenExpiries = new Map<string, number>();
  const campaigns = new Map([[DEMO_AD_ACCOUNT, seedCampaigns()]]);
  return {
    world: {
      campaigns,
      accounts: new Map([[DEMO_AD_ACCOUNT, { currency: 'USD', timezone: 'America/Los_Angeles' }]]),
      budgetChanges: new Map(),
      objects: new Map(),
      nextId: 1,
    },
    reportRuns: new Map(),
    videoUploads: loadVideoState(videosDir),
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

function accountEdge(edge: 'images' | 'videos' | 'campaigns', node: NodeType): GraphHandler {
  return (call, state, { account }) => {
    const rows = state[edge].get(account as string);
    if (!rows) return unknownObject('GET', `act_${account}`);
    const fields = requestedFields(call, node);
    if (!Array.isArray(fields)) return fields;
    let selected = rows;
    if (edge === 'images' && call.params.hashes !== undefined) {
      const hashes = parseJsonArray(call.params.hashes, 'hashes');
      if (!Array.isArray(hashes)) return hashes;
      selected = rows.filter((row) => hashes.includes(String(row.hash)));
    }
    if (edge === 'campaigns') {
      const filter =
        call.params.effective_status === undefined
          ? ['ACTIVE', 'PAUSED', 'IN_PROCESS', 'WITH_ISSUES']
          : parseJsonArray(call.params.effective_status, 'effective_status');
      if (!Array.isArray(filter)) return filter;
      const unknown = filter.find((status) => !EFFECTIVE_STATUSES.includes(status));
      if (unknown) return graphError(100, `(#100) Param effective_status[0] must be one of {${EFFECTIVE_STATUSES.join(', ')}}`);
      selected = rows.filter((row) => filter.includes(String(row.effective_status)));
      const kept = filtered(selected, call.params.filtering);
      if (!Array.isArray(kept)) return kept;
      selected = kept;
    }
    return withHeaders(
      page(call, `act_${account}/${edge === 'images' ? 'adimages' : edge === 'videos' ? 'advideos' : 'campaigns'}`, selected, fields),
      usageHeaders(account),
    );
  };
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

const NODE_OF = { adset: 'AdSet', creative: 'AdCreative', ad: 'Ad' } as const;

/** `GET /{campaign}/adsets` and `GET /{adset}/ads`: the children not deleted, with `filtering`. */
function launchEdge(kind: 'adset' | 'ad'): GraphHandler {
  return (call, state, { node }) => {
    const parent = node as string;
    const owner = kind === 'adset' ? findCampaign(state.world, parent)?.account : state.world.objects.get(parent)?.account;
    if (!owner) return unknownObject('GET', parent);
    const fields = requestedFields(call, NODE_OF[kind]);
    if (!Array.isArray(fields)) return fields;
    const kept = filtered(childrenOf(state.world, parent, kind), call.params.filtering);
    if (!Array.isArray(kept)) return kept;
    return withHeaders(page(call, `${parent}/${kind === 'adset' ? 'adsets' : 'ads'}`, kept, fields), usageHeaders(owner));
  };
}

/** `GET act_{id}/adcreatives`: the account's creatives, newest first, with `filtering` (name). */
const accountCreatives: GraphHandler = (call, state, { account }) => {
  if (!state.campaigns.has(account as string)) return unknownObject('GET', `act_${account}`);
  const fields = requestedFields(call, 'AdCreative');
  if (!Array.isArray(fields)) return fields;
  const rows = [...state.world.objects.values()]
    .filter((object) => object.kind === 'creative' && object.account === account && object.status !== 'DELETED')
    .sort((a, b) => b.createdAtMs - a.createdAtMs)
    .map((object) => launchObjectRow(state.world, object));
  const kept = filtered(rows, call.params.filtering);
  if (!Array.isArray(kept)) return kept;
  return withHeaders(page(call, `act_${account}/adcreatives`, kept, fields), usageHeaders(account as string));
};

/** What a creative may name: the account's images, its videos once ready, the Pages the sandbox knows. */
function mediaCheck(state: SocialState): MediaCheck {
  return {
    imageKnown: (account, hash) => (state.images.get(account) ?? []).some((image) => image.hash === hash),
    videoReady: (account, id) => {
      const status = uploadedVideoStatus(state.videoUploads, id);
      if (status) return (status.body as { status?: { video_status?: string } }).status?.video_status === 'ready';
      return (state.videos.get(account) ?? []).some((video) => video.id === id);
    },
    pageAllowed: (pageId) => state.pages.has(pageId),
  };
}

/** `GET /{video}/thumbnails`: two frames of a processed video (none while it processes). */
const videoThumbnails: GraphHandler = (_call, state, { node }) => {
  const id = node as string;
  const status = uploadedVideoStatus(state.videoUploads, id);
  const known = status !== undefined || [...state.videos.values()].some((videos) => videos.some((video) => video.id === id));
  if (!known) return unknownObject('GET', `${id}/thumbnails`);
  const ready = !status || (status.body as { status?: { video_status?: string } }).status?.video_status === 'ready';
  const frame = (index: number) => ({
    id: `${id.slice(0, 10)}9${String(index).padStart(5, '0')}`,
    uri: `https://scontent.xx.fbcdn.net/v/t15.5256-10/${id}_thumb_${index}.jpg`,
    is_preferred: index === 1,
    width: 1280,
    height: 720,
  });
  return { status: 200, body: { data: ready ? [frame(1), frame(2)] : [] } };
};

const getNode: GraphHandler = (call, state, { node }) => {
  const id = node as string;
  const video = uploadedVideoStatus(state.videoUploads, id);
  if (video) return video;
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
  const launched = state.world.objects.get(id);
  if (launched) {
    const fields = requestedFields(call, NODE_OF[launched.kind]);
    if (!Array.isArray(fields)) return fields;
    return withHeaders({ status: 200, body: project(launchObjectRow(state.world, launched), fields) }, usageHeaders(launched.account));
  }
  const campaign = findCampaign(state.world, id);
  if (campaign) {
    const fields = requestedFields(call, 'Campaign');
    if (!Array.isArray(fields)) return fields;
    return withHeaders({ status: 200, body: project({ ...campaign.row, account_id: campaign.account }, fields) }, usageHeaders(campaign.account));
  }
  return unknownObject('GET', id);
};

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
const VIDEO_HOST = '/video-host';

/**
 * `audiencesFile`: where audiences and their upload sessions are kept across restarts (the data
 * folder); `campaignsFile`: where the campaigns and their budget changes are; `imagesFile`: the ad
 * accounts' image libraries, so an image uploaded before a restart is still there after it.
 */
export async function startSocialSandbox(
  options: { appId?: string; appSecret?: string; audiencesFile?: string; campaignsFile?: string; videosDir?: string; imagesFile?: string } = {},
): Promise<SocialSandbox> {
  const state = seedState(options.videosDir);
  const { imagesFile } = options;
  if (imagesFile && existsSync(imagesFile)) state.images = new Map(JSON.parse(readFileSync(imagesFile, 'utf8')) as Array<[string, Row[]]>);
  /** an image upload, kept in the data folder once it is made (written whole, then renamed) */
  const imageWrite =
    (handle: GraphHandler): GraphHandler =>
    (call, state, params) => {
      const answer = handle(call, state, params);
      if (imagesFile && 'status' in answer && answer.status === 200) {
        writeFileSync(`${imagesFile}.tmp`, JSON.stringify([...state.images]));
        renameSync(`${imagesFile}.tmp`, imagesFile);
      }
      return answer;
    };
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
  const listVideo = (account: string, row: Row) => {
    const videos = state.videos.get(account) ?? [];
    state.videos.set(account, videos);
    videos.unshift(row);
  };
  // the videos uploaded before a restart, as the platform still has them
  for (const video of state.videoUploads.uploaded.values())
    listVideo(video.account, { id: video.videoId, ...(video.title ? { title: video.title } : {}), format: [] });
  const graph = (method: string, pattern: string, handle: GraphHandler, host = ''): SandboxRoute => ({
    method,
    path: new RegExp(`^${host}${VERSION}${pattern}$`),
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
    graph('POST', '/act_(?<account>[0-9]+)/adimages', imageWrite(uploadAdImage)),
    graph('GET', '/act_(?<account>[0-9]+)/advideos', accountEdge('videos', 'AdVideo')),
    // the resumable upload is on the video host only (SOCIAL_VIDEO_API_URL), as the platform's is
    graph('POST', '/act_(?<account>[0-9]+)/advideos', videoUploadPhase(state.videoUploads, listVideo), VIDEO_HOST),
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
      campaignWrite(
        (call, state, { account }) =>
          checkNewCampaign(call.params) ?? campaignValidateOnly(call.params) ?? createCampaign(state.world, account as string, call.params),
      ),
    ),
    graph(
      'POST',
      '/act_(?<account>[0-9]+)/adsets',
      campaignWrite((call, state, { account }) => createAdSet(state.world, account as string, call.params)),
    ),
    graph(
      'POST',
      '/act_(?<account>[0-9]+)/adcreatives',
      campaignWrite((call, state, { account }) => createCreative(state.world, account as string, call.params, mediaCheck(state))),
    ),
    graph(
      'POST',
      '/act_(?<account>[0-9]+)/ads',
      campaignWrite((call, state, { account }) => createAd(state.world, account as string, call.params)),
    ),
    graph('GET', '/act_(?<account>[0-9]+)/adcreatives', accountCreatives),
    graph('GET', `/${ID}/adsets`, launchEdge('adset')),
    graph('GET', `/${ID}/thumbnails`, videoThumbnails),
    graph('GET', `/${ID}/ads`, launchEdge('ad')),
    graph(
      'POST',
      `/${ID}`,
      campaignWrite(
        (call, state, { node }) =>
          updateCampaign(state.world, node as string, call.params) ??
          updateLaunchObject(state.world, node as string, call.params) ??
          notACampaign('POST', node as string),
      ),
    ),
    graph(
      'DELETE',
      `/${ID}`,
      campaignWrite(
        (_call, state, { node }) =>
          deleteCampaign(state.world, node as string) ?? deleteLaunchObject(state.world, node as string) ?? notACampaign('DELETE', node as string),
      ),
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
    [
      { method: 'POST', path: /^\/__sandbox\/video-processing$/, handle: (request) => setVideoProcessing(state.videoUploads, request.fields) },
      signerTokensRoute(() => state.connect.tokenPeople),
      {
        method: 'GET',
        path: /^\/__sandbox\/videos\/(?<id>[0-9]+)$/,
        handle: (_request, { id }) => {
          const video = uploadedVideo(state.videoUploads, id as string);
          return video ? { status: 200, body: video } : { status: 404, body: { error: 'no video uploaded with this id' } };
        },
      },
    ],
  );
  publicBase = sandbox.url;
  return Object.assign(sandbox, { state });
}
