import * as z from 'zod';
import { userIdSchema } from '../../shared/schemas/common.ts';
import { evaluationSchema, storedOrNewRule } from '../../shared/schemas/rules.ts';

/** The operation's own request and answer schemas: the handler validates with them, api.ts documents them. */
/** Exactly one of ruleId and rule (a oneOf in the document and in a typed client's types). */
export const previewRuleRequest = storedOrNewRule({ userId: userIdSchema });

export const previewResultSchema = z.object({ evaluations: z.array(evaluationSchema) });
