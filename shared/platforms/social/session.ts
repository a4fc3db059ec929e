import type { Context } from 'aws-lambda';
import { openConnection, type User } from '../../store/users.ts';
import { budgetFrom } from '../upstream.ts';
import type { SocialSession } from './client.ts';

/** The user's social connection (PLATFORM_NOT_CONNECTED without one) and the call budget of this request. */
export function socialSession(
  user: User,
  context: Pick<Context, 'getRemainingTimeInMillis'>,
): SocialSession & { connection: ReturnType<typeof openConnection<'social'>> } {
  const connection = openConnection(user, 'social');
  return { accessToken: connection.accessToken, ...budgetFrom(context), connection };
}
