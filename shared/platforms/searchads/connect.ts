import { config } from '../../core/config.ts';
import { PlatformRejected, PlatformUnavailable } from '../../core/errors.ts';
import { ConnectRefused, type AccountChoice, type ConnectFlow, type DiscoveredGrant } from '../connect-flow.ts';
import { exchangeAuthorizationCode, rememberAccessToken, revokeToken, tokenEndpoint } from '../oauth-token-client.ts';
import type { CallBudget } from '../upstream.ts';
import { adsCall } from './client.ts';
import { searchadsConsent } from './consent.ts';

/**
 * The search-ads side of a connect link (docs/platforms.md "Search ads"): Google's consent screen with PKCE
 * (S256), offline access and forced consent so a refresh token is issued on every reconnect; the
 * OpenID `sub` names the person; the accounts are the directly accessible customers plus the client
 * accounts under each accessible manager (walked breadth-first with the root manager as
 * `login-customer-id`); revocation posts the refresh token in the body.
 */
const ADWORDS_SCOPE = 'https://www.googleapis.com/auth/adwords';
const GOOGLE_ISSUER = 'https://accounts.google.com';
const MAX_MANAGERS_WALKED = 50;

interface CustomerRow {
  id?: string;
  descriptiveName?: string;
  currencyCode?: string;
  manager?: boolean;
  status?: string;
}
interface SearchAnswer<T> {
  results?: T[];
  nextPageToken?: string;
}

/** The `sub` claim of an id token received straight from the token endpoint over TLS (OIDC Core §3.1.3.7: no signature check needed). */
export function subjectOfIdToken(idToken: string | undefined): string | undefined {
  const payload = idToken?.split('.')[1];
  if (!payload) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { sub?: unknown };
    return typeof claims.sub === 'string' && claims.sub !== '' ? claims.sub : undefined;
  } catch {
    return undefined;
  }
}

async function searchAll<T>(session: { refreshToken: string; loginCustomerId?: string } & CallBudget, customerId: string, query: string): Promise<T[]> {
  const rows: T[] = [];
  let pageToken: string | undefined;
  do {
    const answer = await adsCall<SearchAnswer<T>>(
      session,
      { httpMethod: 'POST', path: `customers/${customerId}/googleAds:search`, body: { query, ...(pageToken ? { pageToken } : {}) } },
      { retrySafe: true },
    );
    rows.push(...(answer.results ?? []));
    pageToken = answer.nextPageToken;
  } while (pageToken);
  return rows;
}

const CUSTOMER_QUERY =
  'SELECT customer.id, customer.descriptive_name, customer.manager, customer.currency_code, customer.time_zone, customer.status, customer.test_account FROM customer';
const CLIENT_QUERY =
  'SELECT customer_client.client_customer, customer_client.level, customer_client.manager, customer_client.descriptive_name, customer_client.currency_code, customer_client.time_zone, customer_client.id, customer_client.status FROM customer_client WHERE customer_client.level <= 1';

const choice = (row: CustomerRow, loginCustomerId?: string): AccountChoice => ({
  id: String(row.id ?? ''),
  name: row.descriptiveName ?? '',
  ...(row.currencyCode ? { currency: row.currencyCode } : {}),
  selectable: row.manager !== true && row.status === 'ENABLED',
  ...(loginCustomerId ? { loginCustomerId } : {}),
});

export async function discoverSearchadsAccounts(refreshToken: string, budget: CallBudget): Promise<AccountChoice[]> {
  const session = { ...budget, refreshToken };
  const listed = await adsCall<{ resourceNames?: string[] }>(session, { httpMethod: 'GET', path: 'customers:listAccessibleCustomers' }, { retrySafe: true });
  const accessible = (listed.resourceNames ?? []).map((name) => name.replace(/^customers\//, ''));
  const found = new Map<string, AccountChoice>();
  const managers: string[] = [];
  for (const id of accessible) {
    try {
      const [row] = await searchAll<{ customer?: CustomerRow }>(session, id, CUSTOMER_QUERY);
      const customer = { id, ...row?.customer };
      found.set(id, choice(customer));
      if (customer.manager === true) managers.push(id);
    } catch (error) {
      // a cancelled or suspended account fails its own query: shown, not selectable
      if (!(error instanceof PlatformRejected)) throw error;
      found.set(id, { id, name: '', selectable: false });
    }
  }
  // client accounts reached only through a manager, with the accessible root manager as login-customer-id
  for (const root of managers) {
    const queue = [root];
    const walked = new Set<string>();
    while (queue.length > 0 && walked.size < MAX_MANAGERS_WALKED) {
      const manager = queue.shift() as string;
      if (walked.has(manager)) continue;
      walked.add(manager);
      const rows = await searchAll<{ customerClient?: CustomerRow & { level?: string } }>({ ...session, loginCustomerId: root }, manager, CLIENT_QUERY);
      for (const { customerClient } of rows) {
        const id = String(customerClient?.id ?? '');
        if (!customerClient || !id || customerClient.level === '0' || id === manager) continue;
        if (customerClient.manager) queue.push(id);
        if (!found.has(id)) found.set(id, choice(customerClient, root)); // direct access wins
      }
    }
  }
  return [...found.values()];
}

export const searchadsConnectFlow: ConnectFlow = {
  ...searchadsConsent,
  acceptsCallback(query) {
    // RFC 9207: when the issuer is named it must be the authorization server we sent the person to
    const issuer = query.get('iss');
    return issuer === null || issuer === GOOGLE_ISSUER || issuer === new URL(config().SEARCHADS_AUTHORIZE_URL).origin;
  },
  async exchange({ code, redirectUri, codeVerifier }, budget): Promise<DiscoveredGrant> {
    const endpoint = tokenEndpoint('searchads');
    const issued = await exchangeAuthorizationCode(endpoint, { code, redirectUri, ...(codeVerifier ? { codeVerifier } : {}) }, budget);
    if (!issued.scopes.includes(ADWORDS_SCOPE)) throw new ConnectRefused('access_denied');
    if (!issued.refreshToken) throw new PlatformUnavailable('searchads', new Error('the code exchange issued no refresh token'));
    const subject = subjectOfIdToken(issued.idToken);
    if (!subject) throw new PlatformUnavailable('searchads', new Error('the code exchange issued no usable id token'));
    rememberAccessToken(endpoint, issued.refreshToken, issued.accessToken, issued.expiresIn);
    return {
      subject,
      secrets: { refreshToken: issued.refreshToken },
      scopes: issued.scopes,
      accounts: await discoverSearchadsAccounts(issued.refreshToken, budget),
      pages: [],
    };
  },
  connectionFields(grant, accountId) {
    const account = grant.accounts.find((candidate) => candidate.id === accountId);
    return { customerId: accountId, ...(account?.loginCustomerId ? { loginCustomerId: account.loginCustomerId } : {}) };
  },
  async revoke({ refreshToken }, budget) {
    if (refreshToken) await revokeToken('searchads', config().SEARCHADS_REVOKE_URL, { token: refreshToken }, budget);
  },
};
