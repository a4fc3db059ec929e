import * as z from 'zod';
import { numericIdSchema, secretSchema } from './common.ts';

export const socialConnectionSchema = z.strictObject({
  accessToken: secretSchema.describe('User or system-user access token with ads_management (stored encrypted, never returned).'),
  adAccountId: numericIdSchema('adAccountId', { prefix: 'act_' }).describe('Ad account id, with or without the act_ prefix.'),
  pageId: numericIdSchema('pageId').optional().describe('Facebook Page id (photo-page media, lead forms).'),
  photoAccountId: numericIdSchema('photoAccountId').optional().describe('Photo-page business account id; looked up from the page when absent.'),
});

export const searchadsConnectionSchema = z.strictObject({
  refreshToken: secretSchema.describe('OAuth2 refresh token (stored encrypted, never returned).'),
  customerId: numericIdSchema('customerId', { dashes: true, digits: 10 }).describe('10-digit customer id, dashes allowed.'),
  loginCustomerId: numericIdSchema('loginCustomerId', { dashes: true, digits: 10 }).optional().describe('Manager account id, when access goes through one.'),
});

export const professionalConnectionSchema = z.strictObject({
  accessToken: secretSchema.describe('OAuth2 access token (stored encrypted, never returned).'),
  refreshToken: secretSchema.optional().describe('OAuth2 refresh token (stored encrypted, never returned).'),
  adAccountId: numericIdSchema('adAccountId', { prefix: 'urn:li:sponsoredAccount:' }).describe('Sponsored ad account id, bare or as a URN.'),
});

export const connectionsSchema = z.strictObject({
  social: socialConnectionSchema.optional(),
  searchads: searchadsConnectionSchema.optional(),
  professional: professionalConnectionSchema.optional(),
});

export type Connections = z.infer<typeof connectionsSchema>;
export type ConnectedPlatform = keyof Connections;

/** Connection fields that are secrets: sealed in the store, never in a response. */
export const SECRET_FIELDS = {
  social: ['accessToken'],
  searchads: ['refreshToken'],
  professional: ['accessToken', 'refreshToken'],
} as const satisfies { [P in ConnectedPlatform]: ReadonlyArray<keyof NonNullable<Connections[P]>> };
