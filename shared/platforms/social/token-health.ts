import { config } from '../../core/config.ts';
import { PlatformUnavailable } from '../../core/errors.ts';
import { log } from '../../core/logger.ts';
import { callPlatform, fail, ok, parseJson, retry, type CallBudget, type UpstreamResponse, type Verdict } from '../upstream.ts';

/** What the platform knows of a user token (docs/platforms.md, "What every connect round trip shares", `debug_token`). */
export interface SocialTokenHealth {
  isValid: boolean;
  /** epoch ms; undefined when the token never runs out (`expires_at: 0`) */
  expiresAt?: number;
  scopes: string[];
}

interface DebugTokenData {
  is_valid?: boolean;
  expires_at?: number;
  scopes?: string[];
  app_id?: string;
}

/** Always 200 for a user token, valid or not; anything else is about our app token or the platform. */
export function classifyDebugToken(response: UpstreamResponse, appId: string): Verdict<SocialTokenHealth> {
  if (response.status >= 500) return retry(new PlatformUnavailable('social'));
  const data = (parseJson(response.text) as { data?: DebugTokenData } | undefined)?.data;
  if (response.status !== 200 || !data || (data.app_id !== undefined && data.app_id !== appId)) {
    log().error('the social platform refused our app token or answered for another app', { status: response.status });
    return fail(new PlatformUnavailable('social', new Error(`debug_token answered ${response.status}`)));
  }
  const expiresAt = Number(data.expires_at) > 0 ? Number(data.expires_at) * 1000 : undefined;
  return ok({ isValid: data.is_valid === true, ...(expiresAt ? { expiresAt } : {}), scopes: data.scopes ?? [] });
}

export async function socialTokenHealth(accessToken: string, budget: CallBudget): Promise<SocialTokenHealth> {
  const { SOCIAL_API_URL, SOCIAL_APP_ID, SOCIAL_APP_SECRET } = config();
  if (!SOCIAL_APP_ID || !SOCIAL_APP_SECRET)
    throw new PlatformUnavailable('social', new Error('SOCIAL_APP_ID and SOCIAL_APP_SECRET are needed to check tokens'));
  const query = new URLSearchParams({ input_token: accessToken, access_token: `${SOCIAL_APP_ID}|${SOCIAL_APP_SECRET}` });
  return callPlatform(budget, {
    platform: 'social',
    // the query carries both tokens: the log shows the path only
    request: () => ({ url: `${SOCIAL_API_URL.replace(/\/+$/, '')}/debug_token?${query}`, init: { method: 'GET' }, logPath: '/debug_token' }),
    classify: (response) => classifyDebugToken(response, SOCIAL_APP_ID),
    retrySafe: true,
  });
}
