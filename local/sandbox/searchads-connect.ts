import { randomBytes } from 'node:crypto';
import {
  consentPage,
  ConsentDesk,
  DEFAULT_PERSON,
  errorPage,
  identitySuffix,
  personOf,
  readConsent,
  redirectBack,
  verifierMatches,
  type PersonId,
  type Signer,
} from './consent.ts';
import type { SandboxRequest, SandboxResponse } from './server.ts';

/**
 * The search-ads sandbox's Google sign-in (docs/platforms.md "Search ads", "What every connect round trip shares"): the consent screen, the
 * authorization-code grant with PKCE enforced as RFC 7636 and RFC 9700 say, the id token naming the
 * person, revocation of the whole grant, and the accounts a person reaches: directly
 * (`listAccessibleCustomers`) or as client accounts under a manager (`customer_client`, which needs
 * the manager as `login-customer-id`).
 */
export const GOOGLE_ISSUER = 'https://accounts.google.com';
const ADWORDS = 'https://www.googleapis.com/auth/adwords';

export interface Customer {
  descriptiveName: string;
  currencyCode: string;
  timeZone: string;
  manager: boolean;
  status: 'ENABLED' | 'CANCELED' | 'SUSPENDED' | 'CLOSED';
  /** a manager's direct children */
  clients?: string[];
}

export const CUSTOMERS: Record<string, Customer> = {
  '1234567890': { descriptiveName: 'Example Outfitters Search', currencyCode: 'EUR', timeZone: 'Europe/Berlin', manager: false, status: 'ENABLED' },
  '9876543210': {
    descriptiveName: 'Ben Agency MCC',
    currencyCode: 'USD',
    timeZone: 'America/New_York',
    manager: true,
    status: 'ENABLED',
    clients: ['1234567890', '2345678901', '8765432100'],
  },
  '2345678901': { descriptiveName: 'Trailhead Outdoor Search', currencyCode: 'USD', timeZone: 'America/Denver', manager: false, status: 'ENABLED' },
  '8765432100': {
    descriptiveName: 'Ben Regional MCC',
    currencyCode: 'USD',
    timeZone: 'America/Chicago',
    manager: true,
    status: 'ENABLED',
    clients: ['3456789012'],
  },
  '3456789012': { descriptiveName: 'Trailhead Regional Search', currencyCode: 'USD', timeZone: 'America/Chicago', manager: false, status: 'ENABLED' },
  '5555555555': { descriptiveName: 'Old cancelled account', currencyCode: 'EUR', timeZone: 'Europe/Paris', manager: false, status: 'CANCELED' },
};

const PEOPLE: Record<PersonId, { sub: string; email: string; accessible: string[] }> = {
  ana: { sub: '110000000000000000001', email: 'ana@sandbox.example', accessible: ['1234567890'] },
  ben: { sub: '110000000000000000002', email: 'ben@sandbox.example', accessible: ['9876543210', '5555555555'] },
  cam: { sub: '110000000000000000003', email: 'cam@sandbox.example', accessible: [] },
};

export interface SearchadsConnectState {
  desk: ConsentDesk;
  /** refresh tokens the sandbox issued, with their person */
  refreshPeople: Map<string, Signer>;
  /** access tokens, with their person (one refreshed from a token it did not issue is Ana's) */
  accessPeople: Map<string, Signer>;
  revokedRefreshTokens: Set<string>;
}

export const newSearchadsConnectState = (): SearchadsConnectState => ({
  desk: new ConsentDesk(10 * 60_000),
  refreshPeople: new Map(),
  accessPeople: new Map(),
  revokedRefreshTokens: new Set(),
});

export function consentScreen(request: SandboxRequest, state: SearchadsConnectState, clientId: string): SandboxResponse {
  if (request.query.get('client_id') !== clientId) return errorPage(401, 'Error 401: invalid_client', 'The OAuth client was not found.');
  if (!state.desk.isRegistered(request.query.get('redirect_uri') ?? ''))
    return errorPage(400, 'Error 400: redirect_uri_mismatch', 'You can’t sign in to this app because it doesn’t comply with Google’s OAuth 2.0 policy.');
  if (request.query.get('response_type') !== 'code') return errorPage(400, 'Error 400: invalid_request', 'Required parameter is missing: response_type');
  return consentPage(request, 'Sign in with Google (sandbox)', 'Ad campaign API');
}

export function consentAnswer(request: SandboxRequest, state: SearchadsConnectState, clientId: string): SandboxResponse {
  const consent = readConsent(request, state.desk, clientId, errorPage(400, 'Error 400: invalid_request', 'The request is not valid.'));
  if ('status' in consent) return consent;
  const { params, person, allowed, redirectUri, back } = consent;
  if (!allowed) return redirectBack(redirectUri, { error: 'access_denied', ...back });
  const scopes = (params.scope ?? '').split(' ').filter(Boolean);
  const code = state.desk.issue(
    {
      clientId,
      redirectUri,
      person,
      scopes,
      ...(params.code_challenge ? { challenge: params.code_challenge, challengeMethod: params.code_challenge_method ?? 'plain' } : {}),
    },
    '4/0A',
  );
  return redirectBack(redirectUri, { ...back, iss: GOOGLE_ISSUER, code, scope: scopes.join(' '), authuser: '0', prompt: 'consent' });
}

const invalidGrant = (description: string): SandboxResponse => ({ status: 400, body: { error: 'invalid_grant', error_description: description } });

function idToken(signer: Signer, clientId: string, now: number): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const { email } = PEOPLE[personOf(signer)];
  const sub = `${PEOPLE[personOf(signer)].sub}${identitySuffix(signer)}`;
  const issuedAt = Math.floor(now / 1000);
  return `${part({ alg: 'RS256', kid: 'sandbox', typ: 'JWT' })}.${part({ iss: GOOGLE_ISSUER, azp: clientId, aud: clientId, sub, email, email_verified: true, iat: issuedAt, exp: issuedAt + 3600 })}.${randomBytes(32).toString('base64url')}`;
}

/** grant_type=authorization_code: one use per code, the same redirect URI, the PKCE verifier when a challenge was sent. */
export function exchangeCode(
  form: Record<string, string>,
  state: SearchadsConnectState,
  clientId: string,
  issueAccessToken: (person: Signer) => string,
  now: number,
): SandboxResponse {
  const redeemed = state.desk.redeem(form.code, clientId, form.redirect_uri);
  if ('refused' in redeemed) {
    if (redeemed.refused === 'redirect_mismatch') return { status: 400, body: { error: 'redirect_uri_mismatch', error_description: 'Bad Request' } };
    return invalidGrant(redeemed.refused === 'unknown' ? 'Malformed auth code.' : 'Bad Request');
  }
  const { code } = redeemed;
  if (code.challenge !== undefined) {
    if (!form.code_verifier) return invalidGrant('Missing code verifier.');
    if (!verifierMatches(code, form.code_verifier)) return invalidGrant('Invalid code verifier.');
  } else if (form.code_verifier) {
    return invalidGrant('code_verifier or verifier is not needed.');
  }
  const refreshToken = `1//0g${randomBytes(30).toString('base64url')}`;
  state.refreshPeople.set(refreshToken, code.person);
  const granted = code.scopes.includes(ADWORDS)
    ? code.scopes.map((scope) => (scope === 'email' ? 'https://www.googleapis.com/auth/userinfo.email' : scope))
    : code.scopes;
  return {
    status: 200,
    body: {
      access_token: issueAccessToken(code.person),
      expires_in: 3599,
      refresh_token: refreshToken,
      scope: granted.join(' '),
      token_type: 'Bearer',
      ...(code.scopes.includes('openid') ? { id_token: idToken(code.person, clientId, now) } : {}),
    },
  };
}

/** POST /revoke: a refresh token ends the person's whole grant; a token already dead is `invalid_token`. */
export function revoke(form: Record<string, string>, state: SearchadsConnectState): SandboxResponse {
  const token = form.token ?? '';
  if (!token.startsWith('1//') || state.revokedRefreshTokens.has(token))
    return { status: 400, body: { error: 'invalid_token', error_description: 'Token expired or revoked' } };
  state.revokedRefreshTokens.add(token);
  const person = state.refreshPeople.get(token);
  if (person) for (const [issued, owner] of state.refreshPeople) if (owner === person) state.revokedRefreshTokens.add(issued);
  return { status: 200, raw: '', headers: { 'content-type': 'text/html; charset=utf-8' } };
}

export const personOfRefreshToken = (state: SearchadsConnectState, refreshToken: string): Signer => state.refreshPeople.get(refreshToken) ?? DEFAULT_PERSON;

export function listAccessibleCustomers(accessToken: string, state: SearchadsConnectState): SandboxResponse {
  const { accessible } = PEOPLE[personOf(state.accessPeople.get(accessToken))];
  // empty repeated fields are left out of the JSON
  return { status: 200, body: accessible.length > 0 ? { resourceNames: accessible.map((id) => `customers/${id}`) } : {} };
}

/** Customer ids a person reaches under a manager they access directly (the manager included). */
function reachableThrough(manager: string): Set<string> {
  const reached = new Set<string>([manager]);
  const queue = [manager];
  while (queue.length > 0) {
    for (const child of CUSTOMERS[queue.shift() as string]?.clients ?? []) {
      if (!reached.has(child)) {
        reached.add(child);
        queue.push(child);
      }
    }
  }
  return reached;
}

export type SearchFailure = (status: number, code: string, errors: Array<{ errorCode: Record<string, string>; message: string }>) => SandboxResponse;

/**
 * `googleAds:search` over the `customer` and `customer_client` resources: what the account
 * discovery asks. Returns undefined for any other query (the caller answers it).
 */
export function searchAccounts(
  request: SandboxRequest,
  state: SearchadsConnectState,
  accessToken: string,
  cid: string,
  failure: SearchFailure,
): SandboxResponse | undefined {
  const query = String(request.fields.query ?? '');
  const from = /\bFROM\s+(customer_client|customer)\b/i.exec(query)?.[1]?.toLowerCase();
  if (!from) return undefined;
  const person = PEOPLE[personOf(state.accessPeople.get(accessToken))];
  const login = request.headers['login-customer-id'];
  const direct = person.accessible.includes(cid);
  const viaManager = login !== undefined && person.accessible.includes(login) && reachableThrough(login).has(cid);
  if (!direct && !viaManager) {
    return failure(403, 'PERMISSION_DENIED', [
      {
        errorCode: { authorizationError: 'USER_PERMISSION_DENIED' },
        message:
          "User doesn't have permission to access customer. Note: If you're accessing a client customer, the manager's customer id must be set in the 'login-customer-id' header.",
      },
    ]);
  }
  const customer = CUSTOMERS[cid];
  if (!customer)
    return failure(403, 'PERMISSION_DENIED', [
      { errorCode: { authorizationError: 'USER_PERMISSION_DENIED' }, message: "User doesn't have permission to access customer." },
    ]);
  if (customer.status !== 'ENABLED')
    return failure(403, 'PERMISSION_DENIED', [
      {
        errorCode: { authorizationError: 'CUSTOMER_NOT_ENABLED' },
        message: "The customer account can't be accessed because it is not yet enabled or has been deactivated.",
      },
    ]);
  const row = (id: string) => {
    const found = CUSTOMERS[id] as Customer;
    return {
      resourceName: `customers/${id}`,
      id,
      descriptiveName: found.descriptiveName,
      currencyCode: found.currencyCode,
      timeZone: found.timeZone,
      manager: found.manager,
      status: found.status,
      testAccount: false,
    };
  };
  const requestId = randomBytes(16).toString('base64url').slice(0, 22);
  if (from === 'customer')
    return {
      status: 200,
      body: {
        results: [{ customer: row(cid) }],
        fieldMask: 'customer.id,customer.descriptiveName,customer.manager,customer.currencyCode,customer.timeZone,customer.status,customer.testAccount',
        requestId,
      },
    };
  if (!customer.manager)
    return { status: 200, body: { results: [{ customerClient: { ...row(cid), clientCustomer: `customers/${cid}`, level: '0' } }], requestId } };
  const results = [cid, ...(customer.clients ?? [])].map((id, index) => {
    const { resourceName: _resourceName, testAccount: _test, ...fields } = row(id);
    return {
      customerClient: { resourceName: `customers/${cid}/customerClients/${id}`, clientCustomer: `customers/${id}`, level: index === 0 ? '0' : '1', ...fields },
    };
  });
  return {
    status: 200,
    body: {
      results,
      fieldMask:
        'customerClient.clientCustomer,customerClient.level,customerClient.manager,customerClient.descriptiveName,customerClient.currencyCode,customerClient.timeZone,customerClient.id,customerClient.status',
      requestId,
    },
  };
}
