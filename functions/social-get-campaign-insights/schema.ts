import * as z from 'zod';
import { campaignInsightsFields, checkRange } from '../../shared/schemas/performance.ts';

/** The operation's own request schema (its fields are shared with the use case's types): the handler validates with it, api.ts documents it. */
export const campaignInsightsRequest = z.strictObject(campaignInsightsFields).superRefine(checkRange);
