import { recordAuditEvent } from '../../shared/store/audit-event-writes.ts';
import { randomUUID } from 'node:crypto';
import { idempotent } from '../../shared/http/idempotency.ts';
import { loadAppCredentials } from '../../shared/secrets/app-credentials.ts';
import { defineOperation } from '../../shared/http/operation.ts';
import { declaration } from './declaration.ts';
import { createUserRequest } from './schema.ts';
import { createUser } from '../../shared/store/user-writes.ts';

export const handler = defineOperation({
  declaration,
  recorder: recordAuditEvent,
  credentials: loadAppCredentials,
  idempotency: idempotent(),
  request: createUserRequest,
  user: false,
  run: async ({ input, tenantId, audit }) => {
    const userId = input.userId ?? `usr_${randomUUID()}`;
    const user = await createUser(tenantId, userId, input.connections, audit.event({ userId }));
    return { userId: user.userId };
  },
});
