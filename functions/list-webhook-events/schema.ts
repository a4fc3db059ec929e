import * as z from 'zod/mini';
import { paginationSchema } from '../../shared/schemas/common.ts';

/** The operation's own request and answer schemas: the handler validates with them, api.ts documents them. */
export const listWebhookEventsRequest = z.strictObject({ pagination: paginationSchema });
