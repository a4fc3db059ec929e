import * as z from 'zod/mini';

/** The operation's own request and answer schemas: the handler validates with them, api.ts documents them. */
export const getSettingsRequest = z.strictObject({});
