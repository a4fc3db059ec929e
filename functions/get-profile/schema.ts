import * as z from 'zod';
import { userIdSchema } from '../../shared/schemas/common.ts';
import { connectionHealth } from '../../shared/schemas/connection-health.ts';

/** The operation's own request and answer schemas: the handler validates with them, api.ts documents them. */
export const connectionsView = z.object({
  social: z.object({ adAccountId: z.string(), pageId: z.string().optional(), photoAccountId: z.string().optional(), ...connectionHealth }).optional(),
  searchads: z.object({ customerId: z.string(), loginCustomerId: z.string().optional(), ...connectionHealth }).optional(),
  professional: z.object({ adAccountId: z.string(), ...connectionHealth }).optional(),
});

export const getProfileRequest = z.strictObject({ userId: userIdSchema });
