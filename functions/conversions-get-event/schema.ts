import * as z from 'zod';
import { userIdSchema } from '../../shared/schemas/common.ts';

/** The operation's own request and answer schemas: the handler validates with them, api.ts documents them. */
export const getEventRequest = z.strictObject({ userId: userIdSchema, eventId: z.string().regex(/^[A-Za-z0-9_.:-]{1,64}$/, 'must be an event id') });

export { conversionEventSchema } from '../../shared/schemas/conversions.ts';
