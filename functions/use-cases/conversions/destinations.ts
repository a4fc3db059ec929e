import type { Context } from 'aws-lambda';
import type { Platform } from '../../../shared/core/errors.ts';
import type { ConversionDestination } from '../../../shared/platforms/conversions.ts';
import { platformAdapters } from '../../../shared/platforms/registry.ts';
import type { User } from '../../../shared/store/users.ts';

/**
 * Where the user's connection to `platform` can send conversions (docs/conversions.md): one read of
 * the platform. A user without the connection is PLATFORM_NOT_CONNECTED; a grant without the scope
 * sending needs is SCOPE_MISSING, before any call.
 */
export async function destinationsOf(user: User, platform: Platform, context: Context): Promise<ConversionDestination[]> {
  const adapter = platformAdapters[platform];
  const session = adapter.session(user, context);
  adapter.conversions.checkScopes(user);
  return adapter.conversions.list(session, user);
}
