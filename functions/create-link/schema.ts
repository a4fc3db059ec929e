import * as z from 'zod';
import { userIdSchema, platformSchema } from '../../shared/schemas/common.ts';

/** The operation's own request and answer schemas: the handler validates with them, api.ts documents them. */
/** docs/decisions.md "Connect links": what a tenant sends to get a hosted link for one user and platform. */
const MAX_CLIENT_STATE_LENGTH = 512;

export const createLinkRequest = z.strictObject({
  userId: userIdSchema,
  platform: platformSchema.check(z.describe('The platform to connect.')),
  redirectUri: z.string().min(1).max(2048).describe('Where the person is sent back: exactly one of the tenant’s redirectUris (tenant settings).'),
  state: z.string().max(MAX_CLIENT_STATE_LENGTH).optional().describe('Your own value, handed back unchanged on the redirect.'),
});

export const createLinkResult = z.object({
  link: z.url().describe('Send the person here (valid 24 hours; completes once).'),
  expiresAt: z.number().int().describe('When the link stops working (epoch milliseconds).'),
});
