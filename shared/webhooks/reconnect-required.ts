import { PlatformAuthExpired } from '../errors.ts';
import { log } from '../http/logger.ts';
import { markReconnectRequired } from '../store/user-writes.ts';
import type { User } from '../store/users.ts';
import { recordWebhookEvent } from './events.ts';

/**
 * A platform that refused the user's grant (expired or revoked) marks the connection
 * `reconnect_required` and tells the tenant once with `connection.reconnect_required`. The event is
 * stored due at once and the sweep queues it (within 5 minutes): the queue's client stays out of
 * every platform function's bundle and the function needs no right to the queue.
 */
export async function noteRefusedGrant(user: User, error: unknown): Promise<void> {
  if (!(error instanceof PlatformAuthExpired) || !(error.platform in user.connections)) return;
  try {
    if (!(await markReconnectRequired(user, error.platform))) return;
    await recordWebhookEvent(user.tenantId, 'connection.reconnect_required', { userId: user.userId, platform: error.platform, status: 'reconnect_required' });
  } catch (failure) {
    log().error('could not record the connection as reconnect_required', { platform: error.platform, error: (failure as Error).name });
  }
}
