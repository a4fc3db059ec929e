import { randomBytes } from 'node:crypto';
import { clock } from '../../shared/core/clock.ts';
import {
  consentPage,
  ConsentDesk,
  DEFAULT_PERSON,
  errorPage,
  identitySuffix,
  personOf,
  readConsent,
  redirectBack,
  type PersonId,
  type Signer,
} from './consent.ts';
import type { SandboxRequest, SandboxResponse } from './server.ts';

/**
 * The social sandbox's Facebook Login (docs/platforms.md "Social", "What every connect round trip shares"): the dialog, the code and
 * long-lived exchanges with Meta's error codes, and what a person can reach (`/me`, `/me/adaccounts`,
 * `/me/accounts`, `/me/permissions`), and revocation of the whole grant (`DELETE /me/permissions`).
 */
const SHORT_LIVED_SECONDS = 5108;
const LONG_LIVED_SECONDS = 5_183_944;
export const GRANTED_PERMISSIONS = [
  'ads_management',
  'ads_read',
  'business_management',
  'pages_show_list',
  'pages_read_engagement',
  'pages_manage_ads',
  'instagram_basic',
  'leads_retrieval',
  'pages_manage_metadata',
];

interface Person {
  appScopedId: string;
  name: string;
  adAccounts: Array<{ account_id: string; name: string; account_status: number; currency: string; user_tasks: string[] }>;
  pages: Array<{ id: string; name: string; tasks: string[]; instagram_business_account?: { id: string } }>;
}

const ADVERTISER = ['MANAGE', 'ADVERTISE', 'ANALYZE'];
const PAGE_TASKS = ['ADVERTISE', 'ANALYZE', 'CREATE_CONTENT', 'MANAGE'];
export const SOCIAL_PEOPLE: Record<PersonId, Person> = {
  ana: {
    appScopedId: '10158000000000001',
    name: 'Ana Sandbox',
    adAccounts: [{ account_id: '284756109384756', name: 'Example Outfitters', account_status: 1, currency: 'EUR', user_tasks: ADVERTISER }],
    pages: [{ id: '104857392018465', name: 'Example Outfitters', tasks: PAGE_TASKS, instagram_business_account: { id: '17841400000000001' } }],
  },
  ben: {
    appScopedId: '10158000000000002',
    name: 'Ben Sandbox',
    adAccounts: [
      { account_id: '284756109384756', name: 'Example Outfitters', account_status: 1, currency: 'EUR', user_tasks: ADVERTISER },
      { account_id: '384756109384757', name: 'Trailhead Outdoor US', account_status: 1, currency: 'USD', user_tasks: ['ADVERTISE', 'ANALYZE'] },
      { account_id: '484756109384758', name: 'Closed test shop', account_status: 2, currency: 'EUR', user_tasks: ADVERTISER },
      { account_id: '584756109384759', name: 'Agency reporting', account_status: 1, currency: 'GBP', user_tasks: ['ANALYZE'] },
    ],
    pages: [
      { id: '104857392018465', name: 'Example Outfitters', tasks: PAGE_TASKS, instagram_business_account: { id: '17841400000000001' } },
      { id: '204857392018466', name: 'Trailhead Outdoor', tasks: PAGE_TASKS },
      { id: '304857392018467', name: 'Fan club (moderator)', tasks: ['MODERATE'] },
    ],
  },
  cam: { appScopedId: '10158000000000003', name: 'Cam Sandbox', adAccounts: [], pages: [] },
};

export interface SocialConnectState {
  desk: ConsentDesk;
  /** which person a token the sandbox issued belongs to */
  tokenPeople: Map<string, Signer>;
  /** tokens whose grant was revoked */
  revokedTokens: Set<string>;
  /** when a user token runs out (epoch ms): shared with debug_token */
  tokenExpiries: Map<string, number>;
}

export const newSocialConnectState = (tokenExpiries: Map<string, number>): SocialConnectState => ({
  desk: new ConsentDesk(10 * 60_000),
  tokenPeople: new Map(),
  revokedTokens: new Set(),
  tokenExpiries,
});

const graphFailure = (code: number, message: string, subcode?: number): SandboxResponse => ({
  status: 400,
  body: { error: { message, type: 'OAuthException', code, ...(subcode ? { error_subcode: subcode } : {}), fbtrace_id: randomBytes(8).toString('base64url') } },
});

export function consentDialog(request: SandboxRequest, state: SocialConnectState, appId: string): SandboxResponse {
  if (request.query.get('client_id') !== appId) return errorPage(400, 'Error', 'Invalid App ID: The provided app ID does not look like a valid app ID.');
  const redirectUri = request.query.get('redirect_uri') ?? '';
  if (!state.desk.isRegistered(redirectUri))
    return errorPage(400, 'URL blocked', 'This redirect failed because the redirect URI is not whitelisted in the app’s Client OAuth Settings.');
  return consentPage(request, 'Log in with Facebook (sandbox)', 'Ad campaign API');
}

export function consentAnswer(request: SandboxRequest, state: SocialConnectState, appId: string): SandboxResponse {
  const consent = readConsent(request, state.desk, appId, errorPage(400, 'Error', 'The request is not valid.'));
  if ('status' in consent) return consent;
  const { params, person, allowed, redirectUri, back } = consent;
  if (!allowed)
    return redirectBack(
      redirectUri,
      { error: 'access_denied', error_code: '200', error_description: 'Permissions error', error_reason: 'user_denied', ...back },
      '#_=_',
    );
  const scopes = params.config_id ? GRANTED_PERMISSIONS : (params.scope ?? '').split(',').filter(Boolean);
  const code = state.desk.issue({ clientId: appId, redirectUri, person, scopes }, 'AQ');
  return redirectBack(redirectUri, { code, ...back }, '#_=_');
}

function issueToken(state: SocialConnectState, person: Signer, seconds: number): string {
  const token = `EAA${randomBytes(30)
    .toString('base64url')
    .replace(/[^A-Za-z0-9]/g, '')}`;
  state.tokenPeople.set(token, person);
  state.tokenExpiries.set(token, clock.now() + seconds * 1000);
  return token;
}

/** GET /oauth/access_token: the code exchange, or the long-lived exchange (`grant_type=fb_exchange_token`). */
export function accessToken(request: SandboxRequest, state: SocialConnectState, appId: string, appSecret: string): SandboxResponse {
  const query = request.query;
  if (query.get('client_id') !== appId) return graphFailure(101, 'Error validating application. Invalid application ID.');
  if (query.get('client_secret') !== appSecret) return graphFailure(1, 'Error validating client secret.');
  if (query.get('grant_type') === 'fb_exchange_token') {
    const shortLived = query.get('fb_exchange_token') ?? '';
    const person = state.tokenPeople.get(shortLived);
    const expiresAt = state.tokenExpiries.get(shortLived) ?? 0;
    if (!person || state.revokedTokens.has(shortLived) || expiresAt < clock.now())
      return graphFailure(190, 'Error validating access token: Session has expired.', 463);
    return { status: 200, body: { access_token: issueToken(state, person, LONG_LIVED_SECONDS), token_type: 'bearer', expires_in: LONG_LIVED_SECONDS } };
  }
  const redeemed = state.desk.redeem(query.get('code') ?? undefined, appId, query.get('redirect_uri') ?? undefined);
  if ('refused' in redeemed) {
    if (redeemed.refused === 'used') return graphFailure(100, 'This authorization code has been used.', 36009);
    if (redeemed.refused === 'expired') return graphFailure(100, 'This authorization code has expired.', 36007);
    if (redeemed.refused === 'redirect_mismatch')
      return graphFailure(
        100,
        'Error validating verification code. Please make sure your redirect_uri is identical to the one you used in the OAuth dialog request',
        36008,
      );
    return graphFailure(100, 'Invalid verification code format.');
  }
  return {
    status: 200,
    body: { access_token: issueToken(state, redeemed.code.person, SHORT_LIVED_SECONDS), token_type: 'bearer', expires_in: SHORT_LIVED_SECONDS },
  };
}

const personOfToken = (state: SocialConnectState, token: string) => SOCIAL_PEOPLE[personOf(state.tokenPeople.get(token) ?? DEFAULT_PERSON)];
/** the app-scoped id of whoever holds the token (a tagged signer's is their own) */
export const appScopedIdOf = (state: SocialConnectState, token: string) =>
  `${personOfToken(state, token).appScopedId}${identitySuffix(state.tokenPeople.get(token))}`;

/** One page holding everything, with the cursors a client pages by (and no `next`: it is the last). */
const listing = (data: unknown[]) => ({ status: 200, body: { data, paging: { cursors: { before: 'QVFIUmJlZm9yZQ', after: 'QVFIUmFmdGVy' } } } });

export function me(token: string, state: SocialConnectState): SandboxResponse {
  return { status: 200, body: { id: appScopedIdOf(state, token), name: personOfToken(state, token).name } };
}

export function myAdAccounts(token: string, state: SocialConnectState): SandboxResponse {
  return listing(personOfToken(state, token).adAccounts.map((account) => ({ id: `act_${account.account_id}`, ...account })));
}

export function myPages(token: string, state: SocialConnectState): SandboxResponse {
  return listing(personOfToken(state, token).pages);
}

export function myPermissions(): SandboxResponse {
  return { status: 200, body: { data: GRANTED_PERMISSIONS.map((permission) => ({ permission, status: 'granted' })) } };
}

/** DELETE /me/permissions: the grant is (app, person), so every token the person was issued dies with it. */
export function revokePermissions(token: string, state: SocialConnectState): SandboxResponse {
  const person = state.tokenPeople.get(token);
  state.revokedTokens.add(token);
  if (person) for (const [issued, owner] of state.tokenPeople) if (owner === person) state.revokedTokens.add(issued);
  return { status: 200, body: { success: true } };
}
