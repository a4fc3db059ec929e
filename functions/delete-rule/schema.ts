import * as z from 'zod';
import { userIdSchema } from '../../shared/schemas/common.ts';
import { ruleIdSchema } from '../../shared/schemas/ids.ts';

/** The operation's own request and answer schemas: the handler validates with them, api.ts documents them. */
export const ruleRefRequest = z.strictObject({ userId: userIdSchema, ruleId: ruleIdSchema });

export const deleteRuleResultSchema = z.object({ ruleId: z.string(), deleted: z.literal(true) });
