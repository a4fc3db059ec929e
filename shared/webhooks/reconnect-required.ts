import { PlatformAuthExpired } from '../core/errors.ts';
import { log } from '../core/logger.ts';
import { markReconnectRequired } from '../store/user-writes.ts';
import type { User } from '../store/users.ts';
import { noteDeclarationRequired } from './declaration-required.ts';
import { recordWebhookEvent } from './events.ts';

/**
 * A platform that refused the user's grant (expired or revoked) marks the connection
 * `reconnect_required` and tells the tenant once with `connection.reconnect_required`. The event is
 * stored for the outbox relay, which queues it from the table's stream within a second or so: a
 * platform function carries no queue client, so its cold start pays nothing for this rare path
 * (docs/decisions.md, "Prompt reconnect notices").
 */
export async function noteRefusedGrant(user: User, error: unknown): Promise<void> {
  if (!(error instanceof PlatformAuthExpired) || !(error.platform in user.connections)) return;
  try {
    if (!(await markReconnectRequired(user, error.platform))) return;
    await recordWebhookEvent(
      user.tenantId,
      'connection.reconnect_required',
      { userId: user.userId, platform: error.platform, status: 'reconnect_required' },
      { relay: true },
    );
  } catch (failure) {
    log().error('could not record the connection as reconnect_required', { platform: error.platform, error: (failure as Error).name });
  }
}

/** What a refused platform call tells the tenant, whatever its kind: a refused grant, a search-ads account blocked by its undeclared campaigns. */
export async function notePlatformRefusal(user: User, error: unknown): Promise<void> {
  await noteRefusedGrant(user, error);
  await noteDeclarationRequired(user.tenantId, user.userId, error);
}
