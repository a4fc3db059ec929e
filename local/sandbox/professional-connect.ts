import { randomBytes } from 'node:crypto';
import { clock } from '../../shared/core/clock.ts';
import {
  consentPage,
  ConsentDesk,
  errorPage,
  identitySuffix,
  personOf as seededPersonOf,
  readConsent,
  redirectBack,
  type PersonId,
  type Signer,
} from './consent.ts';
import type { SandboxRequest, SandboxResponse } from './server.ts';

/**
 * The professional sandbox's LinkedIn sign-in (docs/platforms.md "Professional", "What every connect round trip shares"): the authorization page
 * (redirect URIs matched without their query string; a scope the app may not ask refuses the whole
 * request), the authorization-code grant with LinkedIn's `invalid_request` wording, refresh tokens as
 * for an app with programmatic refresh, revocation, and the ad accounts a member holds a role in.
 */
const ACCESS_SECONDS = 5_184_000;
const REFRESH_SECONDS = 31_536_000;
export const APP_SCOPES = [
  'r_ads',
  'rw_ads',
  'rw_dmp_segments',
  'r_ads_reporting',
  'r_organization_social',
  'w_organization_social',
  'r_marketing_leadgen_automation',
  'rw_conversions',
];

interface AdAccountRecord {
  id: number;
  name: string;
  currency: string;
  status: 'ACTIVE' | 'DRAFT' | 'CANCELED';
  type: 'BUSINESS' | 'ENTERPRISE';
  test: boolean;
}

const ACCOUNTS: Record<string, AdAccountRecord> = {
  '500000001': { id: 500000001, name: 'Example Outfitters Ads', currency: 'EUR', status: 'ACTIVE', type: 'BUSINESS', test: false },
  '500000002': { id: 500000002, name: 'Trailhead Outdoor Ads', currency: 'USD', status: 'ACTIVE', type: 'BUSINESS', test: false },
  '500000003': { id: 500000003, name: 'Partner reporting (viewer)', currency: 'EUR', status: 'ACTIVE', type: 'BUSINESS', test: false },
  '500000004': { id: 500000004, name: 'Closed campaign account', currency: 'EUR', status: 'CANCELED', type: 'BUSINESS', test: false },
};

const PEOPLE: Record<PersonId, { urn: string; roles: Array<[string, string]> }> = {
  ana: { urn: 'urn:li:person:AnaSandbox01', roles: [['500000001', 'ACCOUNT_MANAGER']] },
  ben: {
    urn: 'urn:li:person:BenSandbox02',
    roles: [
      ['500000001', 'ACCOUNT_MANAGER'],
      ['500000002', 'CAMPAIGN_MANAGER'],
      ['500000003', 'VIEWER'],
      ['500000004', 'ACCOUNT_MANAGER'],
    ],
  },
  cam: { urn: 'urn:li:person:CamSandbox03', roles: [] },
};

export interface ProfessionalConnectState {
  desk: ConsentDesk;
  tokenPeople: Map<string, Signer>;
  revokedTokens: Set<string>;
  /** what each token (access or refresh) issued through consent was granted */
  tokenScopes: Map<string, string[]>;
}

export const newProfessionalConnectState = (): ProfessionalConnectState => ({
  desk: new ConsentDesk(30 * 60_000),
  tokenPeople: new Map(),
  revokedTokens: new Set(),
  tokenScopes: new Map(),
});

export function authorizationPage(request: SandboxRequest, state: ProfessionalConnectState, clientId: string): SandboxResponse {
  if (request.query.get('client_id') !== clientId) return errorPage(400, 'Bummer, something went wrong.', 'Client_id doesn’t match');
  const redirectUri = request.query.get('redirect_uri') ?? '';
  if (!state.desk.isRegistered(redirectUri, true))
    return errorPage(400, 'Bummer, something went wrong.', 'The redirect_uri does not match the registered value');
  const back: Record<string, string> = { state: request.query.get('state') ?? '' };
  const scopes = (request.query.get('scope') ?? '').split(/[ ,]+/).filter(Boolean);
  const refused = scopes.find((scope) => !APP_SCOPES.includes(scope));
  if (refused)
    return redirectBack(redirectUri, {
      error: 'unauthorized_scope_error',
      error_description: `Scope "${refused}" is not authorized for your application`,
      ...back,
    });
  return consentPage(request, 'Sign in to LinkedIn (sandbox)', 'Ad campaign API');
}

export function authorizationAnswer(request: SandboxRequest, state: ProfessionalConnectState, clientId: string): SandboxResponse {
  const consent = readConsent(request, state.desk, clientId, errorPage(400, 'Bummer, something went wrong.', 'The request is not valid.'), true);
  if ('status' in consent) return consent;
  const { params, person, allowed, redirectUri } = consent;
  if (!allowed)
    return redirectBack(redirectUri, {
      error: 'user_cancelled_authorize',
      error_description: 'The user cancelled the authorization',
      state: params.state ?? '',
    });
  const code = state.desk.issue({ clientId, redirectUri, person, scopes: (params.scope ?? '').split(/[ ,]+/).filter(Boolean) }, 'AQT');
  return redirectBack(redirectUri, { code, state: params.state ?? '' });
}

const NOT_MATCHING =
  'Unable to retrieve access token: appid/redirect uri/code verifier does not match authorization code. Or authorization code expired. Or external member binding exists';

export function exchangeCode(form: Record<string, string>, state: ProfessionalConnectState, clientId: string, issued: Set<string>): SandboxResponse {
  for (const field of ['code', 'redirect_uri']) {
    if (!form[field]) return { status: 400, body: { error: 'invalid_request', error_description: `A required parameter "${field}" is missing` } };
  }
  const redeemed = state.desk.redeem(form.code, clientId, form.redirect_uri);
  if ('refused' in redeemed) {
    const description = redeemed.refused === 'unknown' ? 'Unable to retrieve access token: authorization code not found' : NOT_MATCHING;
    return { status: 400, body: { error: 'invalid_request', error_description: description } };
  }
  const { person, scopes } = redeemed.code;
  const accessToken = `AQX${randomBytes(40).toString('base64url')}`;
  const refreshToken = `AQW${randomBytes(40).toString('base64url')}`;
  issued.add(accessToken);
  state.tokenPeople.set(accessToken, person);
  state.tokenPeople.set(refreshToken, person);
  state.tokenScopes.set(accessToken, scopes);
  state.tokenScopes.set(refreshToken, scopes);
  return {
    status: 200,
    body: {
      access_token: accessToken,
      expires_in: ACCESS_SECONDS,
      refresh_token: refreshToken,
      refresh_token_expires_in: REFRESH_SECONDS,
      scope: scopes.join(','),
    },
  };
}

/** POST /oauth/v2/revoke: the token stops working at once. */
export function revoke(form: Record<string, string>, state: ProfessionalConnectState, clientId: string, clientSecret: string): SandboxResponse {
  if (form.client_id !== clientId || form.client_secret !== clientSecret)
    return { status: 401, body: { error: 'invalid_client', error_description: 'Client authentication failed' } };
  if (!form.token) return { status: 400, body: { error: 'invalid_request', error_description: 'A required parameter "token" is missing' } };
  state.revokedTokens.add(form.token);
  return { status: 200, raw: '' };
}

const personOf = (state: ProfessionalConnectState, request: SandboxRequest) => {
  const token = request.headers.authorization?.match(/^Bearer\s+(.+)$/)?.[1] ?? '';
  const signer = state.tokenPeople.get(token);
  const person = PEOPLE[seededPersonOf(signer)];
  return { ...person, urn: `${person.urn}${identitySuffix(signer)}` };
};

export function adAccountUsers(request: SandboxRequest, state: ProfessionalConnectState): SandboxResponse {
  if (request.query.get('q') !== 'authenticatedUser')
    return { status: 400, body: { status: 400, code: 'QUERY_PARAM_NOT_ALLOWED', message: 'Unsupported finder' } };
  const person = personOf(state, request);
  const time = clock.now();
  const elements = person.roles.map(([account, role]) => ({
    account: `urn:li:sponsoredAccount:${account}`,
    role,
    user: person.urn,
    changeAuditStamps: { created: { time }, lastModified: { time } },
  }));
  return { status: 200, body: { elements, paging: { start: 0, count: 10, links: [] } } };
}

/** `q=search` with the `search` criteria the discovery sends: the member's accounts that are ACTIVE or DRAFT, and not test accounts. */
export function searchAdAccounts(request: SandboxRequest, state: ProfessionalConnectState): SandboxResponse {
  const search = request.query.get('search') ?? '';
  if (request.query.get('q') !== 'search' || !/^\(.*\)$/.test(search))
    return { status: 400, body: { status: 400, code: 'ILLEGAL_ARGUMENT', message: 'Invalid search criteria' } };
  const statuses = /status:\(values:List\(([A-Z_,]+)\)\)/.exec(search)?.[1]?.split(',') ?? ['ACTIVE', 'DRAFT', 'CANCELED'];
  const wantsTest = /test:true/.test(search);
  const person = personOf(state, request);
  const elements = person.roles
    .map(([account]) => ACCOUNTS[account] as AdAccountRecord)
    .filter((account) => statuses.includes(account.status) && account.test === wantsTest)
    .map((account) => ({ ...account, reference: 'urn:li:organization:2414183', servingStatuses: ['RUNNABLE'], version: { versionTag: '4' } }));
  return { status: 200, body: { elements, metadata: {} } };
}
