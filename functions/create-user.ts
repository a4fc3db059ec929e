import { randomUUID } from 'node:crypto';
import { defineOperation } from '../shared/http/operation.ts';
import { createUserRequest } from '../shared/schemas/users.ts';
import { createUser } from '../shared/store/users.ts';

export const handler = defineOperation({
  name: 'create_user',
  request: createUserRequest,
  user: false,
  idempotent: true,
  run: async ({ input, tenantId }) => {
    const user = await createUser(tenantId, input.userId ?? `usr_${randomUUID()}`, input.connections);
    return { userId: user.userId };
  },
});
