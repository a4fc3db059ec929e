import { signerTokensRoute } from './consent.ts';
import { createHmac } from 'node:crypto';
import { existsSync, readFileSync, renameSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { clock } from '../../shared/core/clock.ts';
import { SANDBOX_APP_CREDENTIALS } from './demo-data.ts';
import { appSubscription, formLeads, leadNode, makeLeads, pageForms, setLeadsAccess, subscribedApps } from './social-leads.ts';
import { startSandbox, type Sandbox, type SandboxRequest, type SandboxResponse, type SandboxRoute } from './server.ts';
import { uploadAdImage } from './social-media.ts';
import { createCustomAudience, audienceUsers, journalAudiences, loadAudiences } from './social-audiences.ts';
import { adAccount, createCampaign, deleteCampaign, loadCampaignWorld, saveCampaignWorld, updateCampaign } from './social-campaigns.ts';
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
  revokePermissions,
} from './social-connect.ts';
import type { Row } from './social-data.ts';
import { SUPPORTED_VERSIONS, graphError, unknownObject, authenticate } from './social-graph.ts';
import { campaignInsightsNode, accountInsights, type ReportRun } from './social-insights.ts';

/** Report runs with more rows than this are kept in memory only (a benchmark's million would make every save slow). */
const KEEP_RUN_ROWS = 50_000;
import { createLeadgenForm } from './social-leadgen.ts';
import { accountDatasets, businessDatasets, datasetEvents, setDatasets } from './social-conversions.ts';
import { campaignValidateOnly, checkNewCampaign, createAd, createAdSet, createCreative, deleteLaunchObject, updateLaunchObject } from './social-launch.ts';
import { type SocialHandler, type SocialState, seedState } from './social-state.ts';
import { accountEdge, getPhotoMedia, search, launchEdge, accountCreatives, mediaCheck, videoThumbnails, getNode } from './social-nodes.ts';
import { setVideoProcessing, uploadedVideo, videoUploadPhase } from './social-videos.ts';

/**
 * The social platform sandbox: a Graph-style API as docs/platforms.md, "Social" describes it. It checks
 * tokens, appsecret_proof, `fields` and parameters as the platform does, answers with the
 * platform's error bodies, pages with cursors and with `next` URLs that embed the caller's token,
 * and keeps what is created (lead forms).
 *
 * Tokens: any `EAA…` token is a valid user token with access to the demo ad account and page; one
 * containing EXPIRED is expired (190/463); anything else cannot be parsed (190).
 */
export type { SocialState } from './social-state.ts';
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
  options: {
    appId?: string;
    appSecret?: string;
    audiencesFile?: string;
    campaignsFile?: string;
    videosDir?: string;
    imagesFile?: string;
    reportRunsFile?: string;
  } = {},
): Promise<SocialSandbox> {
  const state = seedState(options.videosDir);
  const { imagesFile } = options;
  if (imagesFile && existsSync(imagesFile)) state.images = new Map(JSON.parse(readFileSync(imagesFile, 'utf8')) as Array<[string, Row[]]>);
  /** an image upload, kept in the data folder once it is made (written whole, then renamed) */
  const imageWrite =
    (handle: SocialHandler): SocialHandler =>
    (call, state, params) => {
      const answer = handle(call, state, params);
      if (imagesFile && 'status' in answer && answer.status === 200) {
        writeFileSync(`${imagesFile}.tmp`, JSON.stringify([...state.images]));
        renameSync(`${imagesFile}.tmp`, imagesFile);
      }
      return answer;
    };
  // report runs, as the platform keeps them: a restart finds the runs it had started (those small enough to keep)
  const { reportRunsFile } = options;
  if (reportRunsFile && existsSync(reportRunsFile)) state.reportRuns = new Map(JSON.parse(readFileSync(reportRunsFile, 'utf8')) as Array<[string, ReportRun]>);
  const runWrite =
    (handle: SocialHandler): SocialHandler =>
    (call, state, params) => {
      const answer = handle(call, state, params);
      if (reportRunsFile && 'status' in answer && answer.status === 200) {
        writeFileSync(`${reportRunsFile}.tmp`, JSON.stringify([...state.reportRuns].filter(([, run]) => run.rows.length <= KEEP_RUN_ROWS)));
        renameSync(`${reportRunsFile}.tmp`, reportRunsFile);
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
    (handle: SocialHandler): SocialHandler =>
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
    (handle: SocialHandler): SocialHandler =>
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
  const graph = (method: string, pattern: string, handle: SocialHandler, host = ''): SandboxRoute => ({
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
    { method: 'POST', path: new RegExp(`^${VERSION}/${appId}/subscriptions$`), handle: (request) => appSubscription(request, state.leads, appId, appSecret) },
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
    graph('POST', '/act_(?<account>[0-9]+)/insights', runWrite(accountInsights(true))),
    graph('GET', `/${ID}/insights`, campaignInsightsNode(false)),
    graph('POST', `/${ID}/insights`, runWrite(campaignInsightsNode(true))),
    graph('GET', '/act_(?<account>[0-9]+)/adspixels', accountDatasets),
    graph('GET', `/${ID}/owned_pixels`, businessDatasets),
    graph('POST', `/${ID}/events`, datasetEvents),
    graph('GET', '/act_(?<account>[0-9]+)', (call, state, { account }) =>
      adAccount(state.world, account as string, String(call.params.fields ?? 'id').split(','), state.datasets.accountBusiness.get(account as string)),
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
    graph('POST', `/${ID}/subscribed_apps`, subscribedApps('POST', appId)),
    graph('GET', `/${ID}/subscribed_apps`, subscribedApps('GET', appId)),
    graph('DELETE', `/${ID}/subscribed_apps`, subscribedApps('DELETE', appId)),
    graph('GET', `/${ID}/leadgen_forms`, pageForms),
    graph('GET', `/${ID}/leads`, formLeads),
    graph('GET', `/${ID}`, (call, state, params) => leadNode(call, state, params.node as string) ?? getNode(call, state, params)),
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
      { method: 'POST', path: /^\/__sandbox\/leads$/, handle: (request) => makeLeads(request.fields, state, appSecret) },
      { method: 'POST', path: /^\/__sandbox\/leads-access$/, handle: (request) => setLeadsAccess(request.fields, state.leads) },
      { method: 'POST', path: /^\/__sandbox\/datasets$/, handle: (request) => setDatasets(request.fields, state.datasets) },
      { method: 'GET', path: /^\/__sandbox\/conversions$/, handle: () => ({ status: 200, body: state.datasets.received }) },
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
  if (!options.videosDir) {
    // a folder of its own (a sandbox started without a data folder) goes with it
    const close = sandbox.close;
    sandbox.close = async () => {
      await close();
      rmSync(state.videoUploads.dir, { recursive: true, force: true });
    };
  }
  return Object.assign(sandbox, { state });
}
