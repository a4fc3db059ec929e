import * as z from 'zod';
import { leadsPlatformFields } from '../../shared/schemas/leads.ts';

/** The operation's own request schema (its answer is subscriptionsResultSchema): the handler validates with it, api.ts documents it. */
export const unsubscribeLeadsRequest = z.strictObject(leadsPlatformFields);

export { subscriptionsResultSchema } from '../../shared/schemas/leads.ts';
