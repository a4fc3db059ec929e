import { clock } from '../../../shared/core/clock.ts';
import { config } from '../../../shared/core/config.ts';
import { PlatformAuthExpired, type Platform } from '../../../shared/core/errors.ts';
import { log } from '../../../shared/core/logger.ts';
import { renewGrant } from '../../../shared/platforms/grant-renewal.ts';
import { socialTokenHealth } from '../../../shared/platforms/social/token-health.ts';
import type { CallBudget } from '../../../shared/platforms/upstream.ts';
import { allUsers } from '../../../shared/store/user-scan.ts';
import { markReconnectRequired, saveConnectionHealth } from '../../../shared/store/user-writes.ts';
import { openConnection, type User } from '../../../shared/store/users.ts';
import { emitWebhookEvent } from '../../../shared/webhooks/emit.ts';

/**
 * docs/decisions.md "Connection health": keeps every connection alive or says it is not. Professional
 * tokens with a refresh token are renewed before they run out; search-ads grants are refreshed at
 * least weekly, so a revoked one shows early; social tokens (no refresh exists) are asked about with
 * `debug_token` and marked `expiring` when they run out soon. A grant the platform refuses is
 * `reconnect_required`, announced once, and not tried again; an unreachable platform changes nothing.
 */
const DAY_MS = 86_400_000;
const SEARCHADS_REFRESH_EVERY_MS = 7 * DAY_MS;
/** time given to one connection's checks */
const CHECK_BUDGET_MS = 20_000;

export interface LifecycleSummary {
  checked: number;
  renewed: number;
  expiring: number;
  reconnectRequired: number;
  unavailable: number;
}

type Outcome = 'checked' | 'renewed' | 'expiring' | 'reconnectRequired';

async function checkSocial(user: User, budget: CallBudget, renewBefore: number): Promise<Outcome> {
  const health = await socialTokenHealth(openConnection(user, 'social').accessToken, budget);
  if (!health.isValid) throw new PlatformAuthExpired('social', 'The social platform reports the token invalid.');
  const expiring = health.expiresAt !== undefined && health.expiresAt - clock.now() <= renewBefore;
  await saveConnectionHealth(user, 'social', {
    status: expiring ? 'expiring' : 'active',
    lastCheckedAt: clock.date().toISOString(),
    ...(health.expiresAt ? { expiresAt: new Date(health.expiresAt).toISOString() } : {}),
    ...(health.scopes.length > 0 ? { scopes: health.scopes.join(' ') } : {}),
  });
  return expiring ? 'expiring' : 'checked';
}

async function checkSearchads(user: User, budget: CallBudget): Promise<Outcome> {
  const stored = user.connections.searchads ?? {};
  const last = Date.parse(stored.lastRefreshedAt ?? '');
  if (Number.isFinite(last) && clock.now() - last < SEARCHADS_REFRESH_EVERY_MS) return 'checked';
  await renewGrant(user, 'searchads', budget);
  return 'renewed';
}

async function checkProfessional(user: User, budget: CallBudget, renewBefore: number): Promise<Outcome> {
  const connection = openConnection(user, 'professional');
  const expiresAt = Date.parse(user.connections.professional?.expiresAt ?? '');
  const runsOutSoon = Number.isFinite(expiresAt) && expiresAt - clock.now() <= renewBefore;
  if (!connection.refreshToken) {
    if (!runsOutSoon) return 'checked';
    await saveConnectionHealth(user, 'professional', { status: 'expiring' });
    return 'expiring';
  }
  // an expiry not yet known (a token given to create_user) is learnt by renewing once
  if (Number.isFinite(expiresAt) && !runsOutSoon) return 'checked';
  await renewGrant(user, 'professional', budget);
  return 'renewed';
}

async function checkConnection(user: User, platform: Platform, renewBefore: number): Promise<Outcome> {
  const budget = { deadline: clock.now() + CHECK_BUDGET_MS };
  try {
    if (platform === 'social') return await checkSocial(user, budget, renewBefore);
    if (platform === 'searchads') return await checkSearchads(user, budget);
    return await checkProfessional(user, budget, renewBefore);
  } catch (error) {
    if (!(error instanceof PlatformAuthExpired)) throw error;
    if (await markReconnectRequired(user, platform)) {
      await emitWebhookEvent(user.tenantId, 'connection.reconnect_required', { userId: user.userId, platform, status: 'reconnect_required' });
    }
    return 'reconnectRequired';
  }
}

/** One pass over every connection (of one tenant, when given). */
export async function runConnectionLifecycle(options: { tenantId?: string } = {}): Promise<LifecycleSummary> {
  const summary: LifecycleSummary = { checked: 0, renewed: 0, expiring: 0, reconnectRequired: 0, unavailable: 0 };
  const renewBefore = config().CONNECTION_RENEW_BEFORE_DAYS * DAY_MS;
  for await (const user of allUsers(options.tenantId)) {
    for (const platform of Object.keys(user.connections) as Platform[]) {
      if (user.connections[platform]?.status === 'reconnect_required') continue; // only the user can mend it
      try {
        summary[await checkConnection(user, platform, renewBefore)]++;
      } catch (error) {
        summary.unavailable++;
        log().warn('a connection could not be checked; it is tried again on the next run', { platform, error: (error as Error).name });
      }
    }
  }
  return summary;
}
