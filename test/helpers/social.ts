import { createHmac, randomBytes } from 'node:crypto';
import { DEMO_CONNECTIONS } from '../../local/sandbox/demo-data.ts';
import { newUser, stack } from './api.ts';

/** A user connected to the social sandbox with a token of its own, so its upstream requests can be picked out. */
export async function newSocialUser(apiKey: string, overrides: Record<string, string | undefined> = {}): Promise<{ userId: string; token: string }> {
  const token = `EAAtest${randomBytes(12).toString('hex')}`;
  const userId = await newUser(apiKey, {
    social: { accessToken: token, adAccountId: DEMO_CONNECTIONS.social.adAccountId, pageId: DEMO_CONNECTIONS.social.pageId, ...overrides },
  });
  return { userId, token: overrides.accessToken ?? token };
}

export function expectedProof(token: string): string {
  return createHmac('sha256', stack().env.SOCIAL_APP_SECRET as string)
    .update(token)
    .digest('hex');
}
