import { clock } from '../../../shared/core/clock.ts';
import { codeChallengeOf, hashOf, newCodeVerifier, randomValue } from '../../../shared/connect/one-time-values.ts';
import type { BrowserAnswer, BrowserRequest } from '../../../shared/http/browser-route.ts';
import { callbackUrl } from '../../../shared/platforms/connect-flow.ts';
import { CONSENTS } from '../../../shared/platforms/consents.ts';
import { saveAttempt } from '../../../shared/store/connect-link-writes.ts';
import { findLink } from '../../../shared/store/connect-links.ts';
import { seal } from '../../../shared/store/sealing.ts';
import {
  backWithError,
  BINDING_PATTERN,
  bindingCookieName,
  publicBase,
  returnNotAllowed,
  returnStillAllowed,
  SELECTION_VALID_MS,
  secureCookies,
  STATE_VALID_MS,
  unknownLink,
} from './connect-outcome.ts';

/**
 * The first step of a connect link's round trip (docs/decisions.md "Connect links"): a one-time state
 * bound to the link and to the browser, then the platform's consent screen. It needs only where each
 * platform's consent is (CONSENTS), so connect_start bundles no platform's client.
 */
function bindingCookie(value: string): string {
  return `${bindingCookieName()}=${value}; Path=/; Max-Age=${Math.round((STATE_VALID_MS + SELECTION_VALID_MS) / 1000)}; HttpOnly; SameSite=Lax${secureCookies() ? '; Secure' : ''}`;
}

/** GET /auth/connect/{linkId}: a fresh one-time state, the browser's binding cookie, and off to the consent screen. */
export async function startConsent({ pathParameters, cookies }: BrowserRequest): Promise<BrowserAnswer> {
  const linkId = pathParameters.linkId ?? '';
  const link = /^[A-Za-z0-9_-]{24}$/.test(linkId) ? await findLink(linkId) : undefined;
  if (!link) return unknownLink();
  if (!(await returnStillAllowed(link))) return returnNotAllowed();
  if (link.completedAt || clock.now() > link.validUntil) return backWithError(link, 'expired');
  const flow = CONSENTS[link.platform];
  const existing = cookies.get(bindingCookieName());
  const binding = existing && BINDING_PATTERN.test(existing) ? existing : randomValue(32);
  const state = randomValue(32);
  const codeVerifier = flow.usesPkce ? newCodeVerifier() : undefined;
  const stateHash = hashOf(state);
  await saveAttempt(stateHash, {
    linkId,
    tenantId: link.tenantId,
    userId: link.userId,
    platform: link.platform,
    redirectUri: link.redirectUri,
    ...(link.clientState !== undefined ? { clientState: link.clientState } : {}),
    bindingHash: hashOf(binding),
    ...(codeVerifier ? { sealedCodeVerifier: seal(codeVerifier, `connect/${stateHash}`) } : {}),
    validUntil: clock.now() + STATE_VALID_MS,
  });
  const consent = flow.consentUrl({
    redirectUri: callbackUrl(publicBase(), link.platform),
    state,
    ...(codeVerifier ? { codeChallenge: codeChallengeOf(codeVerifier) } : {}),
  });
  return { redirect: consent, setCookie: bindingCookie(binding) };
}
