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

/** An active campaign made in the social sandbox the way the platform makes one, with the user's token, in `account`. */
export async function socialSandboxCampaign(token: string, account: string, fields: Record<string, string> = {}): Promise<string> {
  const response = await fetch(`${stack().sandboxes.social}/v26.0/act_${account}/campaigns`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      access_token: token,
      appsecret_proof: expectedProof(token),
      name: `Campaign ${randomBytes(6).toString('hex')}`,
      objective: 'OUTCOME_TRAFFIC',
      special_ad_categories: '[]',
      status: 'ACTIVE',
      daily_budget: '5000',
      ...fields,
    }),
  });
  return ((await response.json()) as { id: string }).id;
}
