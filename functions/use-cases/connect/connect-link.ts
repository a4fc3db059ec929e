import { type AuditActor, withAuditScope } from '../../../shared/core/audit.ts';
import { clock } from '../../../shared/core/clock.ts';
import { callbackUrl, ConnectRefused, type ConnectError, type DiscoveredGrant } from '../../../shared/platforms/connect-flow.ts';
import { connectFlows } from '../../../shared/connect/flows.ts';
import { hashOf, linkDigest, randomValue } from '../../../shared/connect/one-time-values.ts';
import { pickerPage } from '../../../shared/connect/pages.ts';
import { PlatformAuthExpired, type Platform } from '../../../shared/core/errors.ts';
import type { BrowserAnswer, BrowserRequest } from '../../../shared/http/browser-route.ts';
import { log } from '../../../shared/core/logger.ts';
import { addGrantHolder, completeLink, removeGrantHolder, saveSelection, spendAttempt, spendSelection } from '../../../shared/store/connect-link-writes.ts';
import { findAttempt, findLink, type ConnectAttempt } from '../../../shared/store/connect-links.ts';
import {
  backWithError,
  pendingSelection,
  publicBase,
  returnNotAllowed,
  returnStillAllowed,
  returnUrl,
  sameBrowser,
  SELECTION_VALID_MS,
  untied,
  type Destination,
} from './connect-outcome.ts';
import { open, seal } from '../../../shared/store/sealing.ts';
import { saveLinkedConnection } from '../../../shared/store/user-writes.ts';
import { findUser } from '../../../shared/store/users.ts';
import { emitWebhookEvent } from '../../../shared/webhooks/emit.ts';

/**
 * docs/decisions.md "Connect links", our side of the OAuth round trip (docs/platforms.md "What every connect round trip shares"),
 * from the callback on (the link: create-link.ts; the consent: start-consent.ts):
 * a link (24 h, completes once) → a one-time state bound to the link and to the browser by a cookie
 * (10 min, spent on first use) → the platform's consent → the callback exchanges the code once,
 * discovers the accounts, and connects at once or after the picker. The person is sent back to the
 * tenant's registered redirect URI with the outcome, and never with a token, code or upstream message;
 * a request that cannot be tied to a link gets a plain page instead of a redirect.
 */
const MAX_STATE_LENGTH = 256;

/** GET /auth/callback/{platform}: spends the state, exchanges the code, and connects or asks which account. */
export async function finishCallback({ pathParameters, query, cookies, budget }: BrowserRequest): Promise<BrowserAnswer> {
  const platform = pathParameters.platform as Platform;
  const flow = connectFlows[platform];
  const state = query.get('state');
  if (!flow || !state || state.length > MAX_STATE_LENGTH) return untied();
  const stateHash = hashOf(state);
  // checked before the state is spent: a callback from another platform (a mix-up) or another browser (a
  // forged or stolen consent URL) is not ours to act on and must not cancel the person's own attempt
  const found = await findAttempt(stateHash);
  if (!found || found.platform !== platform || !sameBrowser(cookies, found.bindingHash)) return untied();
  if (!(await returnStillAllowed(found))) return returnNotAllowed();
  const spent = await spendAttempt(stateHash);
  if (!spent) return untied();
  const { attempt, firstUse } = spent;
  if (!firstUse || clock.now() > attempt.validUntil) return backWithError(attempt, 'expired');
  const link = await findLink(attempt.linkId);
  if (!link || link.completedAt) return backWithError(attempt, 'expired');

  const error = query.get('error');
  if (error !== null) return backWithError(attempt, flow.denials.includes(error) ? 'access_denied' : 'platform_error');
  const code = query.get('code');
  if (!code || (flow.acceptsCallback && !flow.acceptsCallback(query))) return backWithError(attempt, 'platform_error');

  let grant: DiscoveredGrant;
  try {
    const codeVerifier = attempt.sealedCodeVerifier ? open(attempt.sealedCodeVerifier, `connect/${stateHash}`) : undefined;
    grant = await flow.exchange({ code, redirectUri: callbackUrl(publicBase(), platform), ...(codeVerifier ? { codeVerifier } : {}) }, budget);
  } catch (failure) {
    return backWithError(attempt, exchangeError(failure));
  }
  const selectable = grant.accounts.filter((account) => account.selectable);
  if (selectable.length === 0) return backWithError(attempt, 'no_ad_account');
  if (selectable.length === 1 && grant.pages.length <= 1) return connect(attempt, grant, (selectable[0] as { id: string }).id, grant.pages[0]?.id);

  const attemptId = randomValue(18);
  const { sealedCodeVerifier: _verifier, validUntil: _validUntil, ...bound } = attempt;
  await saveSelection({
    ...bound,
    attemptId,
    sealedGrant: seal(JSON.stringify(grant), `connect-select/${attemptId}`),
    validUntil: clock.now() + SELECTION_VALID_MS,
  });
  return { redirect: `${publicBase()}/auth/select/${attemptId}` };
}

function exchangeError(failure: unknown): ConnectError {
  if (failure instanceof ConnectRefused) return failure.reason;
  if (failure instanceof PlatformAuthExpired) return 'expired';
  log().warn('connect exchange failed', { error: (failure as Error).name, code: (failure as { code?: string }).code });
  return 'platform_error';
}

/** Stores the connection (replacing any), records who holds the upstream grant, tells the tenant, and sends the person back. */
async function connect(
  attempt: Destination & Pick<ConnectAttempt, 'tenantId' | 'linkId'>,
  grant: DiscoveredGrant,
  accountId: string,
  pageId?: string,
): Promise<BrowserAnswer> {
  const user = await findUser(attempt.tenantId, attempt.userId);
  if (!user || !(await completeLink(attempt.linkId))) return backWithError(attempt, 'expired');
  const flow = connectFlows[attempt.platform];
  const grantRef = hashOf(`${attempt.platform}\n${grant.subject}`);
  const fields = {
    ...flow.connectionFields(grant, accountId, pageId),
    ...(grant.expiresAt ? { expiresAt: grant.expiresAt } : {}),
    ...(grant.scopes.length > 0 ? { scopes: grant.scopes.join(' ') } : {}),
    grantRef,
  };
  // holder first: a crash between the two leaves a holder too many (a revocation skipped), never a grant revoked under a live connection
  await addGrantHolder(attempt.platform, grantRef, user.tenantId, user.userId);
  const { replacedGrantRef } = await withAuditScope({ actor: connectLinkActor(attempt.linkId) }, () =>
    saveLinkedConnection(user, attempt.platform, fields, grant.secrets, {
      tenantId: user.tenantId,
      action: 'connection.connected',
      target: { type: 'connection', id: attempt.platform },
      userId: user.userId,
      platform: attempt.platform,
      changes: { status: { to: 'active' }, via: { to: 'connect_link' } },
    }),
  );
  // the connection is stored: whatever fails after this, the person goes back to the tenant as connected, never to an error page
  try {
    if (replacedGrantRef && replacedGrantRef !== grantRef) await removeGrantHolder(attempt.platform, replacedGrantRef, user.tenantId, user.userId);
    await emitWebhookEvent(user.tenantId, 'connection.connected', { userId: user.userId, platform: attempt.platform, status: 'active' });
  } catch (failure) {
    log().error('connection stored, but a step after it failed', { platform: attempt.platform, error: (failure as Error).name });
  }
  log().info('connection made through a link', { platform: attempt.platform });
  return { redirect: returnUrl(attempt, { status: 'connected' }) };
}

/** POST /auth/select/{attemptId}: the person's choice, checked against what was offered. */
export async function completePicker(request: BrowserRequest): Promise<BrowserAnswer> {
  const pending = await pendingSelection(request);
  if (!('selection' in pending)) return pending;
  const { selection, grant } = pending;
  const accountId = request.form.get('accountId') ?? '';
  const pageId = request.form.get('pageId') ?? undefined;
  const accountOk = grant.accounts.some((account) => account.selectable && account.id === accountId);
  const pageOk = grant.pages.length === 0 ? pageId === undefined || pageId === '' : grant.pages.some((page) => page.id === pageId);
  if (!accountOk || !pageOk) {
    const problem = accountOk ? 'Choose one of the listed Pages.' : 'Choose one of the available ad accounts.';
    return {
      status: 400,
      html: pickerPage({ attemptId: selection.attemptId, platform: selection.platform, accounts: grant.accounts, pages: grant.pages, problem }),
    };
  }
  if (!(await returnStillAllowed(selection))) return returnNotAllowed();
  if (!(await spendSelection(selection.attemptId))) return backWithError(selection, 'expired');
  return connect(selection, grant, accountId, grant.pages.length > 0 ? pageId : undefined);
}

/** The person's browser that completed a link, named without the link's own value (which opens it): a digest of it. */
const connectLinkActor = (linkId: string): AuditActor => ({ type: 'connect_link', id: linkDigest(linkId) });
