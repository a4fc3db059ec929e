import * as z from 'zod/mini';
import { userIdSchema, paginationSchema } from '../../shared/schemas/common.ts';
import { ruleIdSchema } from '../../shared/schemas/ids.ts';

/** The operation's request schema (the handler validates with it); its answer's is in api.ts, so the handler bundles no rule schema. */
export const listRuleRunsRequest = z.strictObject({ userId: userIdSchema, ruleId: ruleIdSchema, pagination: paginationSchema });
