import * as z from 'zod';
import { userIdSchema } from '../../shared/schemas/common.ts';
import { conversionStagesSchema } from '../../shared/schemas/conversions.ts';

/** The operation's own request and answer schemas: the handler validates with them, api.ts documents them. */
export const getStagesRequest = z.strictObject({ userId: userIdSchema });

export const stagesResultSchema = conversionStagesSchema;
