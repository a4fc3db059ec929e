import { loadAppCredentials } from '../../shared/secrets/app-credentials.ts';
import { connectionHealth } from '../../shared/http/middleware/connection-health.ts';
import { defineOperation } from '../../shared/http/operation.ts';
import { declaration } from './declaration.ts';
import { socialSession } from '../../shared/platforms/social/session.ts';
import { searchTargetingLocations } from '../../shared/platforms/social/targeting-locations.ts';
import { searchTargetingLocationsRequest } from './schema.ts';

export const handler = defineOperation({
  declaration,
  credentials: loadAppCredentials,
  connectionHealth,
  request: searchTargetingLocationsRequest,
  run: async ({ input, user, context }) => ({
    locations: await searchTargetingLocations(socialSession(user, context), input.query),
  }),
});
