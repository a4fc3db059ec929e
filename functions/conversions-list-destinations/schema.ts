import * as z from 'zod';
import { PLATFORMS } from '../../shared/core/errors.ts';
import { userIdSchema } from '../../shared/schemas/common.ts';
import { destinationSchema } from '../../shared/schemas/conversions.ts';

/** The operation's own request and answer schemas: the handler validates with them, api.ts documents them. */
export const listDestinationsRequest = z.strictObject({ userId: userIdSchema, platform: z.enum(PLATFORMS) });

export const listDestinationsResultSchema = z.object({ platform: z.enum(PLATFORMS), destinations: z.array(destinationSchema) });
