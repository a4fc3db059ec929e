import * as z from 'zod';
import { namesAChange, updateRuleFields } from '../../shared/schemas/rules.ts';

/** The operation's own request schema (its fields are shared with the use case's types): the handler validates with it, api.ts documents it. */
export const updateRuleRequest = z.strictObject(updateRuleFields).refine(namesAChange, 'name at least one field to change');
