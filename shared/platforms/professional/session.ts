import type { Context } from 'aws-lambda';
import { config } from '../../config.ts';
import { PlatformAuthExpired, PlatformUnavailable } from '../../errors.ts';
import { openConnection, replaceConnectionSecret, type User } from '../../store/users.ts';
import { budgetFrom, upstreamFetch, type CallBudget } from '../upstream.ts';
import type { ProfessionalSession } from './client.ts';

/** Contract §4.3: a new access token from the refresh token; `invalid_grant` means the user must reconnect. */
export async function refreshProfessionalToken(refreshToken: string, budget: CallBudget): Promise<string> {
  const { PROFESSIONAL_OAUTH_URL, PROFESSIONAL_CLIENT_ID, PROFESSIONAL_CLIENT_SECRET } = config();
  const form = new URLSearchParams({
    grant_type: 'refresh_token',
    refresh_token: refreshToken,
    client_id: PROFESSIONAL_CLIENT_ID ?? '',
    client_secret: PROFESSIONAL_CLIENT_SECRET ?? '',
  });
  const response = await upstreamFetch(
    'professional',
    PROFESSIONAL_OAUTH_URL,
    { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form.toString() },
    budget,
    { retrySafe: false, logPath: new URL(PROFESSIONAL_OAUTH_URL).pathname },
  );
  let body: { access_token?: string; error?: string } = {};
  try {
    body = JSON.parse(response.text) as typeof body;
  } catch {
    throw new PlatformUnavailable('professional');
  }
  if (response.status === 200 && body.access_token) return body.access_token;
  if (response.status >= 500) throw new PlatformUnavailable('professional');
  throw new PlatformAuthExpired('professional', 'The user’s professional-network authorisation has expired; reconnect the account with create_user.');
}

/** The user's professional connection, with a refresh that stores the new token sealed. */
export function professionalSession(user: User, context: Context): ProfessionalSession & { adAccountId: string } {
  const connection = openConnection(user, 'professional');
  const budget = budgetFrom(context);
  const refreshToken = connection.refreshToken;
  return {
    ...budget,
    accessToken: connection.accessToken,
    adAccountId: connection.adAccountId,
    ...(refreshToken
      ? {
          refresh: async () => {
            const accessToken = await refreshProfessionalToken(refreshToken, budget);
            await replaceConnectionSecret(user, 'professional', 'accessToken', accessToken);
            return accessToken;
          },
        }
      : {}),
  };
}
