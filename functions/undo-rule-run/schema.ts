import * as z from 'zod';
import { undoRuleRunFields, undoResultSchema } from '../../shared/schemas/rule-undo.ts';

/** The operation's own request and answer schemas: the handler validates with them, api.ts documents them. */
export const undoRuleRunRequest = z.strictObject(undoRuleRunFields);

export const undoRuleRunResultSchema = undoResultSchema;
