import { config } from '../../core/config.ts';
import { PlatformAuthExpired, PlatformUnavailable } from '../../core/errors.ts';
import { log } from '../../core/logger.ts';
import { ConnectRefused, type AccountChoice, type ConnectFlow, type DiscoveredGrant, type PageChoice } from '../connect-flow.ts';
import { callPlatform, fail, ok, parseJson, retry, type CallBudget, type UpstreamResponse, type Verdict } from '../upstream.ts';
import { graphRequest, type SocialSession } from './client.ts';
import { socialConsent } from './consent.ts';
import { socialTokenHealth } from './token-health.ts';

/**
 * The social platform's side of a connect link (docs/platforms.md "Social"): the Facebook Login dialog
 * (scopes, or a Login-for-Business `config_id`), the code exchange and the long-lived exchange (both
 * GET requests whose query carries our app secret, so only the path is ever logged), `debug_token`
 * for expiry and scopes, and the ad accounts and Pages the person can reach.
 */
const ACTIVE_ACCOUNT = 1;
const ADVERTISING_TASKS = ['ADVERTISE', 'MANAGE'];
const MAX_PAGES_READ = 20;

interface TokenAnswer {
  access_token?: string;
  expires_in?: number;
  error?: { code?: number; error_subcode?: number };
}

/** The exchanges' answers (docs/platforms.md "Social"): a used or expired code means consenting again; the rest is ours or the platform's. */
export function classifySocialTokenResponse(response: UpstreamResponse): Verdict<string> {
  const body = parseJson(response.text) as TokenAnswer | undefined;
  if (response.status === 200 && body?.access_token) return ok(body.access_token);
  if (body === undefined || response.status >= 500) return retry(new PlatformUnavailable('social'));
  const code = Number(body.error?.code);
  const subcode = Number(body.error?.error_subcode);
  // a used or expired code means consenting again; another redirect URI (36008) is our own mistake, logged below
  if (code === 100 && [36007, 36009].includes(subcode))
    return fail(new PlatformAuthExpired('social', 'The authorization code was already used or has expired; connect the account again.'));
  if (code === 190) return fail(new PlatformAuthExpired('social', 'The token could not be exchanged; connect the account again.'));
  log().error('the social platform refused our code exchange', {
    status: response.status,
    platformCode: code,
    platformSubcode: Number.isFinite(subcode) ? subcode : undefined,
  });
  return fail(new PlatformUnavailable('social', new Error(`token exchange answered ${response.status} code ${code}`)));
}

function tokenRequest(params: Record<string, string>, budget: CallBudget, retrySafe: boolean): Promise<string> {
  const { SOCIAL_API_URL, SOCIAL_APP_ID, SOCIAL_APP_SECRET } = config();
  const query = new URLSearchParams({ client_id: SOCIAL_APP_ID ?? '', client_secret: SOCIAL_APP_SECRET ?? '', ...params });
  return callPlatform(budget, {
    platform: 'social',
    request: () => ({ url: `${SOCIAL_API_URL.replace(/\/+$/, '')}/oauth/access_token?${query}`, init: { method: 'GET' }, logPath: '/oauth/access_token' }),
    classify: classifySocialTokenResponse,
    retrySafe,
  });
}

interface Listing<T> {
  data?: T[];
  paging?: { cursors?: { after?: string }; next?: string };
}

/** Every item of an edge, following the cursor (never the token-bearing `paging.next` URL itself). */
async function readAll<T>(session: SocialSession, path: string, params: Record<string, string>): Promise<T[]> {
  const items: T[] = [];
  let after: string | undefined;
  for (let page = 0; page < MAX_PAGES_READ; page++) {
    const { body } = await graphRequest<Listing<T>>(session, 'GET', path, { ...params, limit: 100, ...(after ? { after } : {}) });
    items.push(...(body.data ?? []));
    after = body.paging?.cursors?.after;
    if (!body.paging?.next || !after) break;
  }
  return items;
}

interface AdAccountRow {
  account_id?: string;
  id?: string;
  name?: string;
  account_status?: number;
  currency?: string;
  user_tasks?: string[];
}
interface PageRow {
  id: string;
  name?: string;
  tasks?: string[];
  instagram_business_account?: { id?: string };
}

export async function discoverSocialAccounts(
  accessToken: string,
  budget: CallBudget,
): Promise<{ subject: string; accounts: AccountChoice[]; pages: PageChoice[] }> {
  const session: SocialSession = { ...budget, accessToken };
  const me = (await graphRequest<{ id?: string }>(session, 'GET', 'me', { fields: 'id,name' })).body;
  const adAccounts = await readAll<AdAccountRow>(session, 'me/adaccounts', { fields: 'id,account_id,name,account_status,currency,user_tasks' });
  const pages = await readAll<PageRow>(session, 'me/accounts', { fields: 'id,name,tasks,instagram_business_account{id}' });
  return {
    subject: String(me.id ?? ''),
    accounts: adAccounts.map((row) => ({
      id: String(row.account_id ?? row.id ?? '').replace(/^act_/, ''),
      name: row.name ?? '',
      ...(row.currency ? { currency: row.currency } : {}),
      selectable: row.account_status === ACTIVE_ACCOUNT && (row.user_tasks ?? []).some((task) => ADVERTISING_TASKS.includes(task)),
    })),
    pages: pages
      .filter((page) => (page.tasks ?? []).includes('ADVERTISE'))
      .map((page) => ({
        id: page.id,
        name: page.name ?? '',
        ...(page.instagram_business_account?.id ? { photoAccountId: page.instagram_business_account.id } : {}),
      })),
  };
}

export const socialConnectFlow: ConnectFlow = {
  ...socialConsent,
  async exchange({ code, redirectUri }, budget): Promise<DiscoveredGrant> {
    const shortLived = await tokenRequest({ redirect_uri: redirectUri, code }, budget, false);
    const accessToken = await tokenRequest({ grant_type: 'fb_exchange_token', fb_exchange_token: shortLived }, budget, true);
    const health = await socialTokenHealth(accessToken, budget);
    if (!health.isValid) throw new PlatformAuthExpired('social', 'The new token is not valid.');
    if (health.scopes.length > 0 && !['ads_management', 'ads_read'].every((scope) => health.scopes.includes(scope))) throw new ConnectRefused('access_denied');
    const discovered = await discoverSocialAccounts(accessToken, budget);
    return {
      ...discovered,
      secrets: { accessToken },
      scopes: health.scopes,
      ...(health.expiresAt ? { expiresAt: new Date(health.expiresAt).toISOString() } : {}),
    };
  },
  connectionFields(grant, accountId, pageId) {
    const page = grant.pages.find((candidate) => candidate.id === pageId);
    return { adAccountId: accountId, ...(page ? { pageId: page.id } : {}), ...(page?.photoAccountId ? { photoAccountId: page.photoAccountId } : {}) };
  },
  async revoke({ accessToken }, budget) {
    try {
      await graphRequest({ ...budget, accessToken: accessToken ?? '' }, 'DELETE', 'me/permissions', {}, { retrySafe: true });
    } catch (error) {
      if (!(error instanceof PlatformAuthExpired)) throw error; // a token already refused has nothing left to revoke
    }
  },
};
