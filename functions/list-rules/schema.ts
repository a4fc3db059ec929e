import * as z from 'zod';
import { userIdSchema, paginationSchema } from '../../shared/schemas/common.ts';
import { pagingSchema } from '../../shared/schemas/social.ts';
import { ruleSchema } from '../../shared/schemas/rules.ts';

/** The operation's own request and answer schemas: the handler validates with them, api.ts documents them. */
export const listRulesRequest = z.strictObject({ userId: userIdSchema, pagination: paginationSchema });

export const rulesListResultSchema = z.object({ rules: z.array(ruleSchema), paging: pagingSchema });
