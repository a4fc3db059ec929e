import * as z from 'zod/mini';
import { numericIdSchema, secretSchema } from './common.ts';

export const socialConnectionSchema = z.strictObject({
  accessToken: secretSchema.check(z.describe('User or system-user access token with ads_management (stored encrypted, never returned).')),
  adAccountId: numericIdSchema('adAccountId', { prefix: 'act_' }).check(z.describe('Ad account id, with or without the act_ prefix.')),
  pageId: z.optional(numericIdSchema('pageId')).check(z.describe('Facebook Page id (photo-page media, lead forms).')),
  photoAccountId: z.optional(numericIdSchema('photoAccountId')).check(z.describe('Photo-page business account id; looked up from the page when absent.')),
});

export const searchadsConnectionSchema = z.strictObject({
  refreshToken: secretSchema.check(z.describe('OAuth2 refresh token (stored encrypted, never returned).')),
  customerId: numericIdSchema('customerId', { dashes: true, digits: 10 }).check(z.describe('10-digit customer id, dashes allowed.')),
  loginCustomerId: z
    .optional(numericIdSchema('loginCustomerId', { dashes: true, digits: 10 }))
    .check(z.describe('Manager account id, when access goes through one.')),
});

export const professionalConnectionSchema = z.strictObject({
  accessToken: secretSchema.check(z.describe('OAuth2 access token (stored encrypted, never returned).')),
  refreshToken: z.optional(secretSchema).check(z.describe('OAuth2 refresh token (stored encrypted, never returned).')),
  adAccountId: numericIdSchema('adAccountId', { prefix: 'urn:li:sponsoredAccount:' }).check(z.describe('Sponsored ad account id, bare or as a URN.')),
});

export const connectionsSchema = z.strictObject({
  social: z.optional(socialConnectionSchema),
  searchads: z.optional(searchadsConnectionSchema),
  professional: z.optional(professionalConnectionSchema),
});

export type Connections = z.infer<typeof connectionsSchema>;
export type ConnectedPlatform = keyof Connections;

/** Connection fields that are secrets: sealed in the store, never in a response. */
export const SECRET_FIELDS = {
  social: ['accessToken'],
  searchads: ['refreshToken'],
  professional: ['accessToken', 'refreshToken'],
} as const satisfies { [P in ConnectedPlatform]: ReadonlyArray<keyof NonNullable<Connections[P]>> };
