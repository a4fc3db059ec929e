import type { AuditUnit } from '../../../shared/core/audit.ts';
import { connectFlows } from '../../../shared/connect/flows.ts';
import { PlatformNotConnected, type Platform } from '../../../shared/core/errors.ts';
import { log } from '../../../shared/core/logger.ts';
import type { CallBudget } from '../../../shared/platforms/upstream.ts';
import { SECRET_FIELDS } from '../../../shared/schemas/users.ts';
import { removeGrantHolder } from '../../../shared/store/connect-link-writes.ts';
import { grantHasOtherHolders } from '../../../shared/store/connect-links.ts';
import { open } from '../../../shared/store/sealing.ts';
import { takeConnection } from '../../../shared/store/user-writes.ts';
import { sealOwner, type User } from '../../../shared/store/users.ts';
import { emitWebhookEvent } from '../../../shared/webhooks/emit.ts';

/**
 * docs/decisions.md "Connect links": a disconnect deletes the tokens, revokes the grant upstream when it was
 * issued through a connect link and no other live connection shares it (docs/platforms.md "What every connect round trip shares"),
 * and sends `connection.disconnected`. Tokens given to create_user are the client's own (it ran the
 * OAuth itself, or they are system-user tokens it uses elsewhere), so they are forgotten, not revoked.
 * A failed revocation does not keep our copy: the tokens are gone either way, and the log says so.
 */
export async function disconnect(user: User, platform: Platform, budget: CallBudget, audit: AuditUnit): Promise<{ revoked: boolean }> {
  const removed = await takeConnection(user, platform, audit.event({}));
  if (!removed) throw new PlatformNotConnected(platform, `This user has no ${platform} connection to remove.`);
  let revoked = false;
  if (removed.connectedVia === 'link' && removed.grantRef) {
    await removeGrantHolder(platform, removed.grantRef, user.tenantId, user.userId);
    if (!(await grantHasOtherHolders(platform, removed.grantRef, user.tenantId, user.userId))) {
      const secrets: Record<string, string> = {};
      for (const field of SECRET_FIELDS[platform] as readonly string[]) {
        if (removed[field]) secrets[field] = open(removed[field], sealOwner(user.tenantId, user.userId, platform, field));
      }
      try {
        await connectFlows[platform].revoke(secrets, budget);
        revoked = true;
      } catch (error) {
        log().warn('upstream revocation failed; our tokens are deleted anyway', { platform, error: (error as Error).name });
      }
    }
  }
  await emitWebhookEvent(user.tenantId, 'connection.disconnected', { userId: user.userId, platform, status: 'disconnected' });
  return { revoked };
}
