import type { Context } from 'aws-lambda';
import { openConnection, type User } from '../../store/users.ts';
import { accessTokenFor, forgetAccessToken, tokenEndpoint } from '../oauth-token-client.ts';
import { budgetFrom } from '../upstream.ts';
import type { ProfessionalSession } from './client.ts';

/**
 * The user's professional connection. An expired access token is refreshed when the connection has
 * a refresh token; the new one is left in `refreshedAccessToken` for the caller to store.
 */
export function professionalSession(user: User, context: Context): ProfessionalSession & { adAccountId: string; refreshedAccessToken?: string } {
  const connection = openConnection(user, 'professional');
  const budget = budgetFrom(context);
  const refreshToken = connection.refreshToken;
  const session: ProfessionalSession & { adAccountId: string; refreshedAccessToken?: string } = {
    ...budget,
    accessToken: connection.accessToken,
    adAccountId: connection.adAccountId,
  };
  if (refreshToken) {
    session.refresh = async () => {
      // the token the platform just called expired must not come back from the cache
      forgetAccessToken(tokenEndpoint('professional'), refreshToken, session.accessToken);
      session.refreshedAccessToken = await accessTokenFor(tokenEndpoint('professional'), refreshToken, budget);
      return session.refreshedAccessToken;
    };
  }
  return session;
}
