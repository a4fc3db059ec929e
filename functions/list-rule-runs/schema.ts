import * as z from 'zod';
import { userIdSchema, paginationSchema } from '../../shared/schemas/common.ts';
import { pagingSchema } from '../../shared/schemas/social.ts';
import { ruleIdSchema, ruleRunSchema } from '../../shared/schemas/rules.ts';

/** The operation's own request and answer schemas: the handler validates with them, api.ts documents them. */
export const listRuleRunsRequest = z.strictObject({ userId: userIdSchema, ruleId: ruleIdSchema, pagination: paginationSchema });

export const ruleRunsResultSchema = z.object({ runs: z.array(ruleRunSchema), paging: pagingSchema });
