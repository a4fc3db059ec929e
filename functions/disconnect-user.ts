import { PlatformNotConnected } from '../shared/errors.ts';
import { defineOperation } from '../shared/http/operation.ts';
import { disconnectRequest } from '../shared/schemas/users.ts';
import { removeConnection } from '../shared/store/user-writes.ts';
import { emitWebhookEvent } from '../shared/webhooks/emit.ts';
import { declaration } from './disconnect-user.declaration.ts';

/**
 * Removes a connection and its tokens and sends `connection.disconnected`. Tokens given to create_user
 * are the client's own (it ran the OAuth itself, or they are system-user tokens it uses elsewhere), so
 * they are forgotten here, not revoked upstream.
 */
export const handler = defineOperation({
  declaration,
  request: disconnectRequest,
  run: async ({ input, user }) => {
    if (!(await removeConnection(user, input.platform))) throw new PlatformNotConnected(input.platform, `This user has no ${input.platform} connection to remove.`);
    await emitWebhookEvent(user.tenantId, 'connection.disconnected', { userId: user.userId, platform: input.platform, status: 'disconnected' });
    return { userId: user.userId, platform: input.platform, status: 'disconnected' as const };
  },
});
