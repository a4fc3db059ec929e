import { PlatformAuthExpired } from '../errors.ts';
import { log } from '../http/logger.ts';
import { markReconnectRequired } from '../store/user-writes.ts';
import type { User } from '../store/users.ts';

/**
 * A platform that refused the user's grant (expired or revoked) marks the connection
 * `reconnect_required` and tells the tenant once with `connection.reconnect_required`, queued at once
 * like every other event. The queue's client is loaded only on this rare path (a dynamic import), so
 * it adds nothing to a platform function's cold start (docs/decisions.md, "Prompt reconnect notices").
 */
export async function noteRefusedGrant(user: User, error: unknown): Promise<void> {
  if (!(error instanceof PlatformAuthExpired) || !(error.platform in user.connections)) return;
  try {
    if (!(await markReconnectRequired(user, error.platform))) return;
    const { emitWebhookEvent } = await import('./emit.ts');
    await emitWebhookEvent(user.tenantId, 'connection.reconnect_required', { userId: user.userId, platform: error.platform, status: 'reconnect_required' });
  } catch (failure) {
    log().error('could not record the connection as reconnect_required', { platform: error.platform, error: (failure as Error).name });
  }
}
