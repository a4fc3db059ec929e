import { recordAuditEvent } from '../../shared/store/audit-event-writes.ts';
import { loadAppCredentials } from '../../shared/secrets/app-credentials.ts';
import { defineOperation } from '../../shared/http/operation.ts';
import { budgetFrom } from '../../shared/platforms/upstream.ts';
import { disconnectRequest } from './schema.ts';
import { declaration } from './declaration.ts';
import { disconnect } from '../use-cases/connect/disconnect.ts';

/** POST /users/disconnect: removes a connection, revoking a linked grant upstream (see the use case). */
export const handler = defineOperation({
  declaration,
  recorder: recordAuditEvent,
  request: disconnectRequest,
  credentials: loadAppCredentials,
  run: async ({ input, user, context, audit }) => {
    await disconnect(user, input.platform, budgetFrom(context), audit);
    return { userId: user.userId, platform: input.platform, status: 'disconnected' as const };
  },
});
