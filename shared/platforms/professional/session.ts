import type { Context } from 'aws-lambda';
import { openConnection, type User } from '../../store/users.ts';
import { renewGrant } from '../grant-renewal.ts';
import { budgetFrom } from '../upstream.ts';
import type { ProfessionalSession } from './client.ts';

/**
 * The user's professional connection. An expired access token is renewed when the connection has a
 * refresh token, through the one renewal path (which stores the new token and when it expires).
 */
export function professionalSession(user: User, context: Pick<Context, 'getRemainingTimeInMillis'>): ProfessionalSession & { adAccountId: string } {
  const connection = openConnection(user, 'professional');
  const budget = budgetFrom(context);
  const session: ProfessionalSession & { adAccountId: string } = { ...budget, accessToken: connection.accessToken, adAccountId: connection.adAccountId };
  if (connection.refreshToken) session.refresh = () => renewGrant(user, 'professional', budget);
  return session;
}
