import type { Context } from 'aws-lambda';
import { config } from '../../config.ts';
import { openConnection, replaceConnectionSecret, type User } from '../../store/users.ts';
import { accessTokenFor, forgetAccessToken, type TokenEndpoint } from '../oauth-token-client.ts';
import { budgetFrom } from '../upstream.ts';
import type { ProfessionalSession } from './client.ts';

/** The professional network's token endpoint (contract §4.3) with our app's credentials. */
export function professionalTokenEndpoint(): TokenEndpoint {
  const { PROFESSIONAL_OAUTH_URL, PROFESSIONAL_CLIENT_ID, PROFESSIONAL_CLIENT_SECRET } = config();
  return {
    platform: 'professional',
    url: PROFESSIONAL_OAUTH_URL,
    clientId: PROFESSIONAL_CLIENT_ID,
    clientSecret: PROFESSIONAL_CLIENT_SECRET,
    reconnectHint: 'reconnect the account with create_user.',
  };
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
            // the token the platform just called expired must not come back from the cache
            forgetAccessToken(professionalTokenEndpoint(), refreshToken, connection.accessToken);
            const accessToken = await accessTokenFor(professionalTokenEndpoint(), refreshToken, budget);
            await replaceConnectionSecret(user, 'professional', 'accessToken', accessToken);
            return accessToken;
          },
        }
      : {}),
  };
}
