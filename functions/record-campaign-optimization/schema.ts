import * as z from 'zod';
import { recordOptimizationFields } from '../../shared/schemas/optimization.ts';

/** The operation's own request schema (its fields are shared with the use case's types): the handler validates with it, api.ts documents it. */
export const recordOptimizationRequest = z.strictObject(recordOptimizationFields);
