import * as z from 'zod';
import { userIdSchema } from '../../shared/schemas/common.ts';
import { conversionStagesSchema, crmNameSchema, stagesSchema } from '../../shared/schemas/conversions.ts';

/** The operation's own request and answer schemas: the handler validates with them, api.ts documents them. */
export const setStagesRequest = z.strictObject({ userId: userIdSchema, crmName: crmNameSchema, stages: stagesSchema });

export const stagesResultSchema = conversionStagesSchema;
