import * as z from 'zod';
import { createRuleFields } from '../../shared/schemas/rules.ts';

/** The operation's own request schema (its fields are shared with the use case's types): the handler validates with it, api.ts documents it. */
export const createRuleRequest = z.strictObject(createRuleFields);
