import * as z from 'zod/mini';
import { userIdSchema } from '../../shared/schemas/common.ts';
import { connectionHealth } from '../../shared/schemas/connection-health.ts';

/** The operation's own request and answer schemas: the handler validates with them, api.ts documents them. */
export const connectionsView = z.object({
  social: z.optional(z.object({ adAccountId: z.string(), pageId: z.optional(z.string()), photoAccountId: z.optional(z.string()), ...connectionHealth })),
  searchads: z.optional(z.object({ customerId: z.string(), loginCustomerId: z.optional(z.string()), ...connectionHealth })),
  professional: z.optional(z.object({ adAccountId: z.string(), ...connectionHealth })),
});

export const getProfileRequest = z.strictObject({ userId: userIdSchema });
