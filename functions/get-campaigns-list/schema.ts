import * as z from 'zod';
import { userIdSchema } from '../../shared/schemas/common.ts';

/** The operation's own request and answer schemas: the handler validates with them, api.ts documents them. */
export const getCampaignsListRequest = z.strictObject({ userId: userIdSchema });
