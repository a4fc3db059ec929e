import * as z from 'zod/mini';

/** What a user's connection to one platform says of its health (get_profile and the connection webhooks). */
export const connectionHealth = {
  status: z
    .enum(['active', 'expiring', 'reconnect_required'])
    .check(z.describe('reconnect_required: the platform refused the grant; connect the account again.')),
  connectedAt: z.string().check(z.describe('ISO 8601')),
  connectedVia: z.enum(['link', 'token']),
  expiresAt: z.optional(z.string()).check(z.describe('When the stored grant runs out, when known (ISO 8601).')),
  scopes: z.optional(z.array(z.string())).check(z.describe('The permissions the grant carries, when known.')),
};
