import { clock } from '../../shared/core/clock.ts';
import { canSendConversions, createConversionEvents, listConversionRules, seedConversionRules, setConversionRules } from './professional-conversions.ts';
import { restliError } from './professional-restli.ts';
import {
  createLeadNotification,
  deleteLeadNotification,
  findLeads,
  getLead,
  getLeadForm,
  listLeadNotifications,
  makeProfessionalLeads,
  newProfessionalLeadsState,
} from './professional-leads.ts';
import { signerTokensRoute } from './consent.ts';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { DEMO_CONNECTIONS, SANDBOX_APP_CREDENTIALS } from './demo-data.ts';
import {
  adAccountUsers,
  authorizationAnswer,
  authorizationPage,
  exchangeCode,
  newProfessionalConnectState,
  revoke,
  searchAdAccounts,
} from './professional-connect.ts';
import {
  deleteCampaign,
  getAccount,
  getCampaign,
  loadProfessionalCampaigns,
  saveProfessionalCampaigns,
  addCampaigns,
  searchCampaigns,
  seedAccount,
  updateCampaign,
} from './professional-campaigns.ts';
import { adAnalytics } from './professional-analytics.ts';
import { standardizedData } from './professional-report.ts';
import { startSandbox, type Sandbox, type SandboxRequest, type SandboxResponse, type SandboxRoute } from './server.ts';
import {
  finalizeVideoUpload,
  getMedia,
  initializeImageUpload,
  initializeVideoUpload,
  newMediaState,
  putUpload,
  setMediaProcessing,
  storedMedia,
  savedMedia,
} from './professional-media.ts';
import {
  createGroup,
  createInline,
  createLaunchCampaign,
  deleteCreative,
  deleteGroup,
  findCreatives,
  getCreative,
  getGroup,
  searchGroups,
  updateCreative,
  updateGroup,
} from './professional-launch.ts';

import {
  type ProfessionalState,
  type Handler,
  generateUploadUrl,
  uploadFile,
  createSegment,
  attachList,
  getSegment,
  findSegments,
  deleteSegment,
  getAdSegment,
} from './professional-segments.ts';
export type { ProfessionalState, Segment } from './professional-segments.ts';

/**
 * The professional network sandbox (docs/platforms.md, "Professional"): the list-upload flow with its
 * Rest.li headers and error bodies, stateful segments, single-use upload URLs, and the OAuth token
 * endpoint. Tokens: `AQV…`/`AQX…` are valid member tokens; EXPIRED in a token → 65602, REVOKED → 65601,
 * anything else → 65600. Refresh tokens are `AQW…`.
 */
const LIVE_VERSIONS = new Set(['202601', '202602', '202603', '202604', '202605', '202606', '202607', '202608']);
function checkToken(request: SandboxRequest, state: ProfessionalState): SandboxResponse | undefined {
  const token = request.headers.authorization?.match(/^Bearer\s+(.+)$/)?.[1];
  if (!token) return restliError(401, { serviceErrorCode: 401, message: 'Empty oauth2_access_token' });
  if (token.includes('EXPIRED') && !state.issuedTokens.has(token))
    return restliError(401, { serviceErrorCode: 65602, code: 'EXPIRED_ACCESS_TOKEN', message: 'The token used in the request has expired' });
  if (token.includes('REVOKED') || state.connect.revokedTokens.has(token))
    return restliError(401, { serviceErrorCode: 65601, code: 'REVOKED_ACCESS_TOKEN', message: 'The token used in the request has been revoked by the user' });
  if (!/^AQ[VX][A-Za-z0-9_-]{8,}$/.test(token)) return restliError(401, { serviceErrorCode: 65600, message: 'Invalid access token' });
  return undefined;
}

function checkRestliHeaders(request: SandboxRequest): SandboxResponse | undefined {
  const version = request.headers['linkedin-version'];
  if (!version)
    return restliError(400, { code: 'VERSION_MISSING', message: 'A version must be present. Please specify a version by adding the LinkedIn-Version header.' });
  if (!LIVE_VERSIONS.has(version)) return restliError(426, { code: 'NONEXISTENT_VERSION', message: `Requested version ${version} is not active` });
  if (request.headers['x-restli-protocol-version'] !== '2.0.0')
    return restliError(400, { code: 'PROTOCOL_VERSION', message: 'X-Restli-Protocol-Version must be 2.0.0' });
  return undefined;
}

const accessToken: Handler = (request, state) => {
  const form = request.fields as Record<string, string>;
  const invalidGrant = {
    status: 400,
    body: { error: 'invalid_grant', error_description: 'The provided authorization grant or refresh token is invalid, expired or revoked' },
  };
  if (form.client_id !== SANDBOX_APP_CREDENTIALS.PROFESSIONAL_CLIENT_ID || form.client_secret !== SANDBOX_APP_CREDENTIALS.PROFESSIONAL_CLIENT_SECRET) {
    return { status: 401, body: { error: 'invalid_client', error_description: 'Client authentication failed' } };
  }
  if (form.grant_type === 'authorization_code') return exchangeCode(form, state.connect, form.client_id, state.issuedTokens);
  if (form.grant_type !== 'refresh_token')
    return { status: 400, body: { error: 'unsupported_grant_type', error_description: 'Only refresh_token is supported by this sandbox' } };
  if (!form.refresh_token?.startsWith('AQW') || form.refresh_token.includes('REVOKED') || state.connect.revokedTokens.has(form.refresh_token))
    return invalidGrant;
  const token = `AQXrefreshed${randomBytes(16).toString('base64url')}`;
  state.issuedTokens.add(token);
  const member = state.connect.tokenPeople.get(form.refresh_token);
  if (member) state.connect.tokenPeople.set(token, member);
  const scopes = state.connect.tokenScopes.get(form.refresh_token);
  if (scopes) state.connect.tokenScopes.set(token, scopes);
  return { status: 200, body: { access_token: token, expires_in: 5_184_000, refresh_token: form.refresh_token, refresh_token_expires_in: 26_438_400 } };
};

const savedPort = (campaignsFile: string | undefined) =>
  campaignsFile && existsSync(`${campaignsFile}.port`) ? Number(readFileSync(`${campaignsFile}.port`, 'utf8')) || 0 : 0;

export interface ProfessionalSandbox extends Sandbox {
  state: ProfessionalState;
}

/**
 * `campaignsFile`: where the ad accounts' campaigns, groups, creatives and media are kept across
 * restarts (the data folder); the port is kept beside them, so the upload URLs the sandbox handed out
 * before a restart still answer after it, as the platform's do.
 */
export async function startProfessionalSandbox(options: { campaignsFile?: string } = {}): Promise<ProfessionalSandbox> {
  const loaded = loadProfessionalCampaigns(options.campaignsFile);
  const campaigns = loaded.world;
  const save = () => saveProfessionalCampaigns(options.campaignsFile, campaigns, savedMedia(state.media));
  const persisted =
    (handle: Handler): Handler =>
    (...args) => {
      const answer = handle(...args);
      if (answer.status < 300) save();
      return answer;
    };
  const state: ProfessionalState = {
    uploadUrls: new Map(),
    files: new Map(),
    segments: new Map(),
    issuedTokens: new Set(),
    connect: newProfessionalConnectState(),
    media: newMediaState(loaded.media),
    leads: newProfessionalLeadsState(),
    conversions: seedConversionRules(DEMO_CONNECTIONS.professional.adAccountId),
  };
  /** whether a token may act for organizations: one issued through consent if it was granted w_organization_social, one given as it is unless it says otherwise */
  const canPost = (request: SandboxRequest) => {
    const token = request.headers.authorization?.replace(/^Bearer\s+/, '') ?? '';
    const granted = state.connect.tokenScopes.get(token);
    return granted ? granted.includes('w_organization_social') : !token.includes('NOORGSOCIAL');
  };
  const mayConvert = (request: SandboxRequest) => {
    const token = request.headers.authorization?.replace(/^Bearer\s+/, '') ?? '';
    return canSendConversions(token, state.connect.tokenScopes.get(token));
  };
  const mediaAction =
    (kind: 'images' | 'videos'): Handler =>
    (request, _state, _params, base) => {
      const action = request.query.get('action');
      if (action === 'initializeUpload')
        return kind === 'images'
          ? initializeImageUpload(state.media, request, base, canPost(request))
          : initializeVideoUpload(state.media, request, base, canPost(request));
      if (action === 'finalizeUpload' && kind === 'videos') return finalizeVideoUpload(state.media, request);
      return restliError(400, { code: 'ACTION_NOT_FOUND', message: `Unknown action ${action}` });
    };
  let base = '';
  const rest = (method: string, path: RegExp, handle: Handler, options: { restli?: boolean; action?: string } = {}): SandboxRoute => ({
    method,
    path,
    handle: (request, params) => {
      if (options.action !== undefined && request.query.get('action') !== options.action)
        return restliError(400, { code: 'ACTION_NOT_FOUND', message: `Unknown action ${request.query.get('action')}` });
      const denied = checkToken(request, state) ?? (options.restli === false ? undefined : checkRestliHeaders(request));
      return denied ?? handle(request, state, params, base);
    },
  });
  const routes: SandboxRoute[] = [
    { method: 'POST', path: /^\/oauth\/v2\/accessToken$/, handle: (request) => accessToken(request, state, {}, base) },
    {
      method: 'GET',
      path: /^\/oauth\/v2\/authorization$/,
      handle: (request) => authorizationPage(request, state.connect, SANDBOX_APP_CREDENTIALS.PROFESSIONAL_CLIENT_ID),
    },
    {
      method: 'POST',
      path: /^\/oauth\/v2\/authorization$/,
      handle: (request) => authorizationAnswer(request, state.connect, SANDBOX_APP_CREDENTIALS.PROFESSIONAL_CLIENT_ID),
    },
    {
      method: 'POST',
      path: /^\/oauth\/v2\/revoke$/,
      handle: (request) =>
        revoke(
          request.fields as Record<string, string>,
          state.connect,
          SANDBOX_APP_CREDENTIALS.PROFESSIONAL_CLIENT_ID,
          SANDBOX_APP_CREDENTIALS.PROFESSIONAL_CLIENT_SECRET,
        ),
    },
    rest('GET', /^\/rest\/adAccountUsers$/, (request) => adAccountUsers(request, state.connect)),
    {
      method: 'POST',
      path: /^\/rest\/leadNotifications$/,
      handle: (request) =>
        checkToken(request, state) ??
        checkRestliHeaders(request) ??
        createLeadNotification(request, state.leads, SANDBOX_APP_CREDENTIALS.PROFESSIONAL_CLIENT_SECRET),
    },
    rest('GET', /^\/rest\/leadNotifications$/, (request) => listLeadNotifications(request, state.leads)),
    rest('DELETE', /^\/rest\/leadNotifications\/(?<id>[^/]+)$/, (_request, state, { id }) => deleteLeadNotification(id as string, state.leads)),
    rest('GET', /^\/rest\/leadFormResponses$/, (request) => findLeads(request, state.leads)),
    rest('GET', /^\/rest\/leadFormResponses\/(?<id>[^/]+)$/, (_request, state, { id }) => getLead(id as string, state.leads)),
    rest('GET', /^\/rest\/leadForms\/(?<id>[^/]+)$/, (_request, _state, { id }) => getLeadForm(id as string)),
    rest('GET', /^\/rest\/adAccounts$/, (request) => searchAdAccounts(request, state.connect)),
    rest('GET', /^\/rest\/conversions$/, (request) => listConversionRules(request, state.conversions, mayConvert(request))),
    rest('POST', /^\/rest\/conversionEvents$/, (request) => createConversionEvents(request, state.conversions, mayConvert(request), clock.now())),
    rest('GET', /^\/rest\/adAnalytics$/, (request, state) => {
      const token = request.headers.authorization?.replace(/^Bearer\s+/, '') ?? '';
      // a token issued through consent has what was granted; a token given as it is reports unless it says otherwise
      const granted = state.connect.tokenScopes.get(token);
      const canReport = granted ? granted.includes('r_ads_reporting') : !token.includes('NOREPORTING');
      return adAnalytics(request, campaigns, (account) => seedAccount(campaigns, account), canReport);
    }),
    rest('GET', /^\/rest\/adAccounts\/(?<account>\d+)$/, (_request, _state, { account }) => getAccount(campaigns, account as string)),
    rest(
      'GET',
      /^\/rest\/(functions|seniorities|geo|industryTaxonomyVersions\/DEFAULT\/industries)$/,
      (request) => standardizedData(request.path, request.query, request.rawQuery) as SandboxResponse,
    ),
    rest(
      'POST',
      /^\/rest\/adAccounts\/(?<account>\d+)\/adCampaigns$/,
      persisted((request, _state, { account }) => createLaunchCampaign(campaigns, request, account as string)),
    ),
    rest('GET', /^\/rest\/adAccounts\/(?<account>\d+)\/adCampaigns$/, (request, _state, { account }) => searchCampaigns(campaigns, account as string, request)),
    rest(
      'POST',
      /^\/rest\/adAccounts\/(?<account>\d+)\/adCampaignGroups$/,
      persisted((request, _state, { account }) => createGroup(campaigns, request, account as string)),
    ),
    rest('GET', /^\/rest\/adAccounts\/(?<account>\d+)\/adCampaignGroups$/, (request, _state, { account }) =>
      searchGroups(campaigns, account as string, request),
    ),
    rest('GET', /^\/rest\/adAccounts\/(?<account>\d+)\/adCampaignGroups\/(?<id>\d+)$/, (_request, _state, { account, id }) =>
      getGroup(campaigns, account as string, id as string),
    ),
    rest(
      'POST',
      /^\/rest\/adAccounts\/(?<account>\d+)\/adCampaignGroups\/(?<id>\d+)$/,
      persisted((request, _state, { account, id }) => updateGroup(campaigns, request, account as string, id as string)),
    ),
    rest(
      'DELETE',
      /^\/rest\/adAccounts\/(?<account>\d+)\/adCampaignGroups\/(?<id>\d+)$/,
      persisted((_request, _state, { account, id }) => deleteGroup(campaigns, account as string, id as string)),
    ),
    rest(
      'POST',
      /^\/rest\/adAccounts\/(?<account>\d+)\/creatives$/,
      persisted((request, _state, { account }) => createInline(campaigns, state.media, request, account as string, canPost(request))),
      { action: 'createInline' },
    ),
    rest('GET', /^\/rest\/adAccounts\/(?<account>\d+)\/creatives$/, (request, _state, { account }) => findCreatives(campaigns, account as string, request)),
    rest('GET', /^\/rest\/adAccounts\/(?<account>\d+)\/creatives\/(?<urn>[^/]+)$/, (_request, _state, { account, urn }) =>
      getCreative(campaigns, account as string, decodeURIComponent(urn as string)),
    ),
    rest(
      'POST',
      /^\/rest\/adAccounts\/(?<account>\d+)\/creatives\/(?<urn>[^/]+)$/,
      persisted((request, _state, { account, urn }) => updateCreative(campaigns, request, account as string, decodeURIComponent(urn as string))),
    ),
    rest(
      'DELETE',
      /^\/rest\/adAccounts\/(?<account>\d+)\/creatives\/(?<urn>[^/]+)$/,
      persisted((_request, _state, { account, urn }) => deleteCreative(campaigns, account as string, decodeURIComponent(urn as string))),
    ),
    rest('GET', /^\/rest\/adAccounts\/(?<account>\d+)\/adCampaigns\/(?<id>\d+)$/, (_request, _state, { account, id }) =>
      getCampaign(campaigns, account as string, id as string),
    ),
    rest(
      'POST',
      /^\/rest\/adAccounts\/(?<account>\d+)\/adCampaigns\/(?<id>\d+)$/,
      persisted((request, _state, { account, id }) => updateCampaign(campaigns, request, account as string, id as string)),
    ),
    rest(
      'DELETE',
      /^\/rest\/adAccounts\/(?<account>\d+)\/adCampaigns\/(?<id>\d+)$/,
      persisted((_request, _state, { account, id }) => deleteCampaign(campaigns, account as string, id as string)),
    ),
    rest('POST', /^\/ambry\/$/, uploadFile, { restli: false }),
    {
      method: 'POST',
      path: /^\/rest\/dmpSegments$/,
      handle: (request, params) => {
        const denied = checkToken(request, state) ?? checkRestliHeaders(request);
        if (denied) return denied;
        const action = request.query.get('action');
        if (action === null) return createSegment(request, state, params, base);
        if (action === 'generateUploadUrl') return generateUploadUrl(request, state, params, base);
        return restliError(400, { code: 'ACTION_NOT_FOUND', message: `Unknown action ${action}` });
      },
    },
    rest('POST', /^\/rest\/dmpSegments\/(?<id>\d+)\/listUploads$/, attachList),
    rest('GET', /^\/rest\/dmpSegments\/(?<id>\d+)$/, getSegment),
    rest('DELETE', /^\/rest\/dmpSegments\/(?<id>\d+)$/, deleteSegment),
    rest('GET', /^\/rest\/dmpSegments$/, findSegments),
    rest('GET', /^\/rest\/adSegments\/(?<id>\d+)$/, getAdSegment),
    rest('POST', /^\/rest\/images$/, persisted(mediaAction('images'))),
    rest('POST', /^\/rest\/videos$/, persisted(mediaAction('videos'))),
    rest('GET', /^\/rest\/(?:images|videos)\/(?<urn>[^/]+)$/, (_request, _state, { urn }) => getMedia(state.media, decodeURIComponent(urn as string))),
    // an image's upload URL wants the bearer token; a video part's URL is pre-signed and takes none
    rest(
      'PUT',
      /^\/dms-uploads\/sp\/v2\/(?<key>\w+)\/uploaded-image\/(?<index>\d+)$/,
      persisted((request, _state, { key, index }) => putUpload(state.media, request, key as string, 'image', Number(index))),
      { restli: false },
    ),
    {
      method: 'PUT',
      path: /^\/dms-uploads\/sp\/v2\/(?<key>\w+)\/uploadedVideo\/(?<index>\d+)$/,
      handle: (request, { key, index }) => {
        const answer = putUpload(state.media, request, key as string, 'video', Number(index));
        if (answer.status < 300) save();
        return answer;
      },
    },
  ];
  const seedCampaigns = (account: string, count: number) => {
    const ids = addCampaigns(campaigns, account, count);
    save();
    return ids;
  };
  const sandbox = await startSandbox(
    'professional',
    routes,
    (request) => restliError(404, { code: 'NOT_FOUND', message: `No resource found for ${request.method} ${request.path}` }),
    savedPort(options.campaignsFile),
    seedCampaigns,
    [
      { method: 'POST', path: /^\/__sandbox\/conversion-rules$/, handle: (request) => setConversionRules(request.fields, state.conversions) },
      { method: 'GET', path: /^\/__sandbox\/conversions$/, handle: () => ({ status: 200, body: state.conversions.received }) },
      { method: 'POST', path: /^\/__sandbox\/media-processing$/, handle: (request) => setMediaProcessing(state.media, request.fields) },
      {
        method: 'POST',
        path: /^\/__sandbox\/leads$/,
        handle: (request) => makeProfessionalLeads(request.fields, state.leads, SANDBOX_APP_CREDENTIALS.PROFESSIONAL_CLIENT_SECRET),
      },
      signerTokensRoute(() => state.connect.tokenPeople),
      {
        method: 'GET',
        path: /^\/__sandbox\/media\/(?<urn>[^/]+)$/,
        handle: (_request, { urn }) => {
          const media = storedMedia(state.media, decodeURIComponent(urn as string));
          return media ? { status: 200, body: media } : { status: 404, body: { error: 'no such media' } };
        },
      },
    ],
  );
  base = sandbox.url;
  if (options.campaignsFile) writeFileSync(`${options.campaignsFile}.port`, new URL(sandbox.url).port);
  return Object.assign(sandbox, { state });
}
