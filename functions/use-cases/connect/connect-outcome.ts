import { clock } from '../../../shared/core/clock.ts';
import { config } from '../../../shared/core/config.ts';
import type { ConnectError, DiscoveredGrant } from '../../../shared/platforms/connect-flow.ts';
import { hashOf } from '../../../shared/connect/one-time-values.ts';
import { pickerPage } from '../../../shared/connect/pages.ts';
import { problemPage, type BrowserAnswer, type BrowserRequest } from '../../../shared/http/browser-route.ts';
import { findSelection, type ConnectAttempt, type PendingSelection } from '../../../shared/store/connect-links.ts';
import { redirectUriProblems } from '../../../shared/schemas/tenant.ts';
import { open } from '../../../shared/store/sealing.ts';
import { loadTenantSettings } from '../../../shared/store/tenant-settings.ts';

/**
 * What every connect route answers a browser with, and the picker page: reads only, so the picker's
 * function holds no write (connect-link.ts does the rest).
 */
export const publicBase = () => config().PUBLIC_BASE_URL.replace(/\/+$/, '');
export const secureCookies = () => publicBase().startsWith('https:');
/** `__Host-` (Secure, Path=/, no Domain) where the API is served over https; plain on a laptop's http. */
export const bindingCookieName = () => (secureCookies() ? '__Host-connect_binding' : 'connect_binding');
export const BINDING_PATTERN = /^[A-Za-z0-9_-]{43}$/;
/** How long a one-time state lives (the consent screen), and then the account picker's selection. */
export const STATE_VALID_MS = 10 * 60_000;
export const SELECTION_VALID_MS = 15 * 60_000;

export type Destination = Pick<ConnectAttempt, 'redirectUri' | 'platform' | 'userId' | 'clientState'>;

/** The tenant's redirect URI with the outcome: status, error, platform, userId and the client's state, nothing else. */
export function returnUrl(destination: Destination, outcome: { status: 'connected' } | { status: 'error'; error: ConnectError }): string {
  const fields: Array<[string, string]> = [['status', outcome.status]];
  if (outcome.status === 'error') fields.push(['error', outcome.error]);
  fields.push(['platform', destination.platform], ['userId', destination.userId]);
  if (destination.clientState !== undefined) fields.push(['state', destination.clientState]);
  const query = fields.map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join('&');
  return `${destination.redirectUri}${destination.redirectUri.includes('?') ? '&' : '?'}${query}`;
}

export const backWithError = (destination: Destination, error: ConnectError): BrowserAnswer => ({
  redirect: returnUrl(destination, { status: 'error', error }),
});
export const unknownLink = () => problemPage(400, 'Link not valid', 'This connect link is not valid. Ask the application that sent you for a new one.');
export const untied = () =>
  problemPage(
    400,
    'Sign-in not recognised',
    'This sign-in cannot be tied to a connect link started in this browser. Start again from the application that sent you.',
  );

export const returnNotAllowed = () =>
  problemPage(
    400,
    'Sign-in not completed',
    'The application that sent you no longer accepts this way back, so nothing was connected. Start again from the application that sent you.',
  );

/** Whether the tenant still lists the destination's redirect URI (it may have removed it since the link was made), and it is one we can send a browser to. */
export async function returnStillAllowed(destination: Destination & { tenantId: string }): Promise<boolean> {
  const { redirectUris } = await loadTenantSettings(destination.tenantId);
  return redirectUris.includes(destination.redirectUri) && redirectUriProblems(destination.redirectUri).length === 0;
}

export const sameBrowser = (cookies: Map<string, string>, bindingHash: string) => {
  const binding = cookies.get(bindingCookieName());
  return binding !== undefined && hashOf(binding) === bindingHash;
};

export async function pendingSelection(request: BrowserRequest): Promise<{ selection: PendingSelection; grant: DiscoveredGrant } | BrowserAnswer> {
  const attemptId = request.pathParameters.attemptId ?? '';
  const selection = /^[A-Za-z0-9_-]{24}$/.test(attemptId) ? await findSelection(attemptId) : undefined;
  if (!selection || !sameBrowser(request.cookies, selection.bindingHash)) return untied();
  if (selection.spentAt || !selection.sealedGrant || clock.now() > selection.validUntil) return backWithError(selection, 'expired');
  return { selection, grant: JSON.parse(open(selection.sealedGrant, `connect-select/${attemptId}`)) as DiscoveredGrant };
}

/** GET /auth/select/{attemptId}: the picker. */
export async function showPicker(request: BrowserRequest): Promise<BrowserAnswer> {
  const pending = await pendingSelection(request);
  if (!('selection' in pending)) return pending;
  const { selection, grant } = pending;
  return { status: 200, html: pickerPage({ attemptId: selection.attemptId, platform: selection.platform, accounts: grant.accounts, pages: grant.pages }) };
}
