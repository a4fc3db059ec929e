import * as z from 'zod';

/** The operation's own request and answer schemas: the handler validates with them, api.ts documents them. */
export const sendTestWebhookRequest = z.strictObject({});
