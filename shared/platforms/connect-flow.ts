import type { Platform } from '../core/errors.ts';
import type { CallBudget } from './upstream.ts';

/**
 * What each platform's side of a connect link does (docs/platforms.md "Social", "Professional"): build the consent
 * URL, turn the callback's code into a grant and list the ad accounts the person can reach, make the
 * stored connection from the chosen account, and revoke. The adapters live beside each platform's
 * client; the connect-link use case knows nothing platform-specific.
 */
export interface AccountChoice {
  id: string;
  name: string;
  currency?: string;
  /** whether the account may be picked (active, and the person may advertise in it) */
  selectable: boolean;
  /** search ads: the manager account the client account is reached through */
  loginCustomerId?: string;
}

/** A social Page the person may advertise for, with its photo-page account when one is linked. */
export interface PageChoice {
  id: string;
  name: string;
  photoAccountId?: string;
}

export interface DiscoveredGrant {
  /** the person upstream (app-scoped user id, OpenID `sub`, member URN); one grant may back several connections */
  subject: string;
  /** the connection's secret fields (sealed when stored) */
  secrets: Record<string, string>;
  /** ISO 8601, when the stored grant itself runs out */
  expiresAt?: string;
  scopes: string[];
  accounts: AccountChoice[];
  pages: PageChoice[];
}

/** Why a callback could not connect, as the redirect back names it (docs/decisions.md "Connect links"). */
export type ConnectError = 'access_denied' | 'no_ad_account' | 'expired' | 'platform_error';

/** The person refused, or granted less than our operations need. */
export class ConnectRefused extends Error {
  readonly reason: ConnectError;

  constructor(reason: ConnectError) {
    super(`connect refused: ${reason}`);
    this.reason = reason;
    this.name = 'ConnectRefused';
  }
}

export interface ConnectFlow {
  platform: Platform;
  /** whether the consent URL carries a PKCE challenge (and the exchange its verifier) */
  usesPkce: boolean;
  consentUrl(request: { redirectUri: string; state: string; codeChallenge?: string }): string;
  /** the callback's `error` values that mean the person said no (the others are the platform's failure) */
  denials: readonly string[];
  /** checks the callback's own parameters beyond code and state (Google's `iss`); false refuses it */
  acceptsCallback?(query: URLSearchParams): boolean;
  exchange(request: { code: string; redirectUri: string; codeVerifier?: string }, budget: CallBudget): Promise<DiscoveredGrant>;
  /** the connection to store for the chosen account (and Page), without secrets */
  connectionFields(grant: DiscoveredGrant, accountId: string, pageId?: string): Record<string, string>;
  /** revokes the grant upstream; a grant already gone is not an error */
  revoke(secrets: Record<string, string>, budget: CallBudget): Promise<void>;
}

/** A platform's consent side alone (the URL a person is sent to): what starting a connect link needs, without the platform's client. */
export type ConsentSide = Pick<ConnectFlow, 'platform' | 'usesPkce' | 'denials' | 'consentUrl'>;

/** Where a platform sends the person back: one fixed URL per platform, registered in its app. */
export const callbackUrl = (publicBaseUrl: string, platform: Platform): string => `${publicBaseUrl.replace(/\/+$/, '')}/auth/callback/${platform}`;

/** A consent URL's query: every value percent-encoded (a space is %20, as the platforms' own examples write it). */
export const consentQuery = (fields: Record<string, string>): string =>
  Object.entries(fields)
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`)
    .join('&');
