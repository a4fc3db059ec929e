import { defineOperation } from '../../shared/http/operation.ts';
import { declaration } from './declaration.ts';
import { getProfileRequest } from './schema.ts';
import { publicConnections } from '../../shared/store/users.ts';

export const handler = defineOperation({
  declaration,
  request: getProfileRequest,
  run: async ({ user }) => ({
    user: { userId: user.userId, createdAt: user.createdAt, connections: publicConnections(user) },
  }),
});
