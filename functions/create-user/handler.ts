import { randomUUID } from 'node:crypto';
import { idempotent } from '../../shared/http/idempotency.ts';
import { loadAppCredentials } from '../../shared/secrets/app-credentials.ts';
import { defineOperation } from '../../shared/http/operation.ts';
import { declaration } from './declaration.ts';
import { createUserRequest } from '../../shared/schemas/users.ts';
import { createUser } from '../../shared/store/user-writes.ts';

export const handler = defineOperation({
  declaration,
  credentials: loadAppCredentials,
  idempotency: idempotent(),
  request: createUserRequest,
  user: false,
  run: async ({ input, tenantId }) => {
    const user = await createUser(tenantId, input.userId ?? `usr_${randomUUID()}`, input.connections);
    return { userId: user.userId };
  },
});
