import { clock } from '../../core/clock.ts';
import { config } from '../../core/config.ts';
import type { AccountChoice, ConnectFlow, DiscoveredGrant } from '../connect-flow.ts';
import { exchangeAuthorizationCode, revokeToken, tokenEndpoint } from '../oauth-token-client.ts';
import type { CallBudget } from '../upstream.ts';
import { restliRequest, type ProfessionalSession } from './client.ts';
import { professionalConsent } from './consent.ts';

/**
 * The professional network's side of a connect link (docs/platforms.md "Professional"): the authorization
 * dialog with the one constant scope set (a different set would invalidate the member's earlier
 * tokens), the code exchange, the ad accounts the member holds a role in (`adAccountUsers`) joined to
 * the usable ones (`adAccounts` search: active or draft, not test), and revocation.
 */
const ACCOUNT_SEARCH = '(status:(values:List(ACTIVE,DRAFT)),type:(values:List(BUSINESS,ENTERPRISE)),test:false)';
const MAX_PAGES_READ = 20;

interface AccountUser {
  account?: string;
  role?: string;
  user?: string;
}
interface AdAccount {
  id?: number | string;
  name?: string;
  currency?: string;
}

const accountIdOf = (urn: string) => urn.replace(/^urn:li:sponsoredAccount:/, '');

export async function discoverProfessionalAccounts(accessToken: string, budget: CallBudget): Promise<{ subject: string; accounts: AccountChoice[] }> {
  const session: ProfessionalSession = { ...budget, accessToken };
  const roles: AccountUser[] = [];
  for (let page = 0, start = 0; page < MAX_PAGES_READ; page++) {
    const { body } = await restliRequest(session, 'GET', `/adAccountUsers?q=authenticatedUser&start=${start}&count=100`);
    const elements = (body as { elements?: AccountUser[] }).elements ?? [];
    roles.push(...elements);
    if (elements.length < 100) break;
    start += elements.length;
  }
  const usable = new Map<string, AdAccount>();
  let pageToken: string | undefined;
  for (let page = 0; page < MAX_PAGES_READ; page++) {
    const { body } = await restliRequest(
      session,
      'GET',
      `/adAccounts?q=search&search=${ACCOUNT_SEARCH}&pageSize=100${pageToken ? `&pageToken=${encodeURIComponent(pageToken)}` : ''}`,
    );
    const answer = body as { elements?: AdAccount[]; metadata?: { nextPageToken?: string } };
    for (const account of answer.elements ?? []) usable.set(String(account.id), account);
    pageToken = answer.metadata?.nextPageToken;
    if (!pageToken) break;
  }
  return {
    subject: roles.find((role) => role.user)?.user ?? '',
    accounts: roles
      .filter((role) => role.account)
      .map((role) => {
        const id = accountIdOf(role.account as string);
        const details = usable.get(id);
        return {
          id,
          name: details?.name ?? '',
          ...(details?.currency ? { currency: details.currency } : {}),
          selectable: details !== undefined && role.role !== 'VIEWER',
        };
      }),
  };
}

export const professionalConnectFlow: ConnectFlow = {
  ...professionalConsent,
  async exchange({ code, redirectUri }, budget): Promise<DiscoveredGrant> {
    const issued = await exchangeAuthorizationCode(tokenEndpoint('professional'), { code, redirectUri }, budget);
    const discovered = await discoverProfessionalAccounts(issued.accessToken, budget);
    return {
      ...discovered,
      secrets: { accessToken: issued.accessToken, ...(issued.refreshToken ? { refreshToken: issued.refreshToken } : {}) },
      scopes: issued.scopes,
      expiresAt: new Date(clock.now() + issued.expiresIn * 1000).toISOString(),
      pages: [],
    };
  },
  connectionFields(_grant, accountId) {
    return { adAccountId: accountId };
  },
  async revoke({ accessToken }, budget) {
    const { PROFESSIONAL_REVOKE_URL, PROFESSIONAL_CLIENT_ID, PROFESSIONAL_CLIENT_SECRET } = config();
    if (accessToken)
      await revokeToken(
        'professional',
        PROFESSIONAL_REVOKE_URL,
        { client_id: PROFESSIONAL_CLIENT_ID ?? '', client_secret: PROFESSIONAL_CLIENT_SECRET ?? '', token: accessToken },
        budget,
      );
  },
};
