import * as z from 'zod/mini';
import { userIdSchema } from '../../shared/schemas/common.ts';

/** The operation's request schema (the handler validates with it); its answer's is conversionEventSchema, which api.ts documents. */
export const getEventRequest = z.strictObject({ userId: userIdSchema, eventId: z.string().check(z.regex(/^[A-Za-z0-9_.:-]{1,64}$/, 'must be an event id')) });
