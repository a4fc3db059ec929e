import { scanItems } from './client.ts';
import type { User } from './users.ts';

/**
 * Every user (of one tenant, when given), a page of the table at a time: only the connection
 * lifecycle, a batch job, reads the whole table, so this module is in no request's bundle.
 */
export async function* allUsers(tenantId?: string): AsyncGenerator<User> {
  const filter = {
    FilterExpression: tenantId ? 'sk = :user AND tenantId = :tenant' : 'sk = :user',
    ExpressionAttributeValues: { ':user': 'USER', ...(tenantId ? { ':tenant': tenantId } : {}) },
  };
  for await (const item of scanItems(filter)) {
    yield { tenantId: item.tenantId, userId: item.userId, createdAt: item.createdAt, connections: item.connections ?? {} } as User;
  }
}
