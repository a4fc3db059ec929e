import { clock } from '../../../shared/core/clock.ts';
import { config } from '../../../shared/core/config.ts';
import { subscribeAppToPageLeads } from '../../../shared/platforms/social/leads.ts';

/**
 * The deploy step of lead webhooks (docs/leads.md, "Platform webhooks"): the social app subscribed to
 * its Pages' `leadgen` events at `{PUBLIC_BASE_URL}/platform-webhooks/social` (the professional network
 * has no app-level step: each account's subscription names the URL). `npm start` runs it against its
 * sandbox; `npm run admin -- subscribe-platform-webhooks` against the platform.
 */
export async function subscribePlatformWebhooks(): Promise<{ social: { callbackUrl: string } }> {
  const { SOCIAL_APP_ID: appId, SOCIAL_APP_SECRET: appSecret, SOCIAL_WEBHOOK_VERIFY_TOKEN: verifyToken, PUBLIC_BASE_URL } = config();
  if (!appId || !appSecret || !verifyToken) throw new Error('SOCIAL_APP_ID, SOCIAL_APP_SECRET and SOCIAL_WEBHOOK_VERIFY_TOKEN must be set');
  const callbackUrl = `${PUBLIC_BASE_URL.replace(/\/+$/, '')}/platform-webhooks/social`;
  await subscribeAppToPageLeads({ deadline: clock.now() + 20_000 }, { appId, appSecret, callbackUrl, verifyToken });
  return { social: { callbackUrl } };
}
