import * as z from 'zod';
import { userIdSchema, paginationSchema } from '../../shared/schemas/common.ts';

/** The operation's own request and answer schemas: the handler validates with them, api.ts documents them. */
export const getPhotoPageMediaRequest = z.strictObject({ userId: userIdSchema, pagination: paginationSchema });
