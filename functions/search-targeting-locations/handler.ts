import { defineOperation } from '../../shared/http/operation.ts';
import { PLATFORM_READ } from '../../shared/http/operation-kits/platform-read.ts';
import { declaration } from './declaration.ts';
import { socialSession } from '../../shared/platforms/social/session.ts';
import { searchTargetingLocations } from '../../shared/platforms/social/targeting-locations.ts';
import { searchTargetingLocationsRequest } from './schema.ts';

export const handler = defineOperation({
  declaration,
  ...PLATFORM_READ,
  request: searchTargetingLocationsRequest,
  run: async ({ input, user, context }) => ({
    locations: await searchTargetingLocations(socialSession(user, context), input.query),
  }),
});
